import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DAY, MINUTE, SECOND } from '../../../src/server/clock.js';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

const SESSION = 'steady_session';
const REMEMBER = 'steady_remember';

/** A fresh app per test: every test moves the fake clock. */
async function withApp(t: { after(fn: () => Promise<void>): void }): Promise<TestApp> {
  const steady = await createTestApp();
  t.after(() => steady.close());
  return steady;
}

async function loggedIn(steady: TestApp, email: string, password = PASSWORD): Promise<TestClient> {
  const client = steady.client();
  const login = await client.post('/api/login', { email, password });
  assert.equal(login.status, 200, login.text);
  return client;
}

async function status(client: TestClient): Promise<number> {
  return (await client.get('/api/me')).status;
}

/** The same browser without its remember-me cookie, so only the session itself can keep it logged in. */
function sessionOnly(client: TestClient): TestClient {
  const copy = client.clone();
  copy.cookies.delete(REMEMBER);
  return copy;
}

describe('sessions and remember-me', () => {
  it('a session lasts 86,400 s from login, however active it is', async (t) => {
    const steady = await withApp(t);
    const anna = sessionOnly(await steady.register('anna@example.com'));
    steady.clock.advance(12 * 60 * MINUTE);
    assert.equal(await status(anna), 200);
    steady.clock.advance(12 * 60 * MINUTE - SECOND);
    assert.equal(await status(anna), 200);
    steady.clock.advance(SECOND);
    const me = await anna.get('/api/me');
    assert.equal(me.status, 401);
    assert.deepEqual(me.body, { ok: false });
  });

  it('an expired session with a valid remember-me cookie gets a fresh session and a rotated remember-me cookie', async (t) => {
    const steady = await withApp(t);
    const anna = await steady.register('anna@example.com', { name: 'Anna' });
    assert.equal((await anna.patch('/api/me', { locale: 'pl' })).status, 200);
    const { id } = (await anna.get('/api/me')).body;
    const before = anna.clone();
    steady.clock.advance(DAY);

    const me = await anna.get('/api/me');
    assert.equal(me.status, 200);
    // The user comes with the remember-me token; every field must be the stored one.
    assert.deepEqual(me.body, { ok: true, email: 'anna@example.com', id, name: 'Anna', locale: 'pl', is_admin: false });
    assert.deepEqual(me.setCookies.map((line) => line.split('=')[0]).sort(), [REMEMBER, SESSION]);
    assert.notEqual(anna.cookies.get(SESSION), before.cookies.get(SESSION));
    assert.notEqual(anna.cookies.get(REMEMBER), before.cookies.get(REMEMBER));

    // The fresh session is a full one: it lasts another day without the remember-me cookie.
    const renewed = sessionOnly(anna);
    steady.clock.advance(DAY - SECOND);
    assert.equal(await status(renewed), 200);
  });

  it('a replayed old remember-me cookie is refused, and once the rotation is a minute old it ends all logins', async (t) => {
    const steady = await withApp(t);
    const anna = await steady.register('anna@example.com');
    const stolen = anna.clone();
    steady.clock.advance(DAY);
    assert.equal(await status(anna), 200); // rotates

    // Seconds later it may be the same browser's parallel request that lost: refused, but nothing else happens.
    steady.clock.advance(30 * SECOND);
    assert.equal(await status(stolen.clone()), 401);
    assert.equal(await status(anna), 200);

    // Later it can only be a copy: all of Anna's logins end, the thief's and her own.
    steady.clock.advance(30 * SECOND);
    assert.equal(await status(stolen), 401);
    assert.equal(await status(anna), 401);
    assert.equal(await status(sessionOnly(anna)), 401);
  });

  it('a wrong validator for a known selector ends all logins of that user, not of others', async (t) => {
    const steady = await withApp(t);
    const anna = await steady.register('anna@example.com');
    const annaPhone = await loggedIn(steady, 'anna@example.com');
    const bert = await steady.register('bert@example.com');
    const [selector] = anna.cookies.get(REMEMBER)!.split('.');
    const forger = steady.client();
    forger.cookies.set(REMEMBER, `${selector}.${'0'.repeat(64)}`);
    steady.clock.advance(MINUTE);

    assert.equal(await status(forger), 401);
    assert.equal(await status(anna), 401);
    assert.equal(await status(annaPhone), 401);
    assert.equal(await status(bert), 200);
  });

  it('two parallel requests racing with one remember-me cookie: one gets the session, neither ends the login', async (t) => {
    const steady = await withApp(t);
    const anna = await steady.register('anna@example.com');
    const twin = anna.clone();
    steady.clock.advance(DAY);
    const statuses = (await Promise.all([anna.get('/api/me'), twin.get('/api/me')])).map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 401]);
    const winner = (await status(anna)) === 200 ? anna : twin;
    assert.equal(await status(winner), 200);
  });

  it('logout ends the session and the remember-me token server-side', async (t) => {
    const steady = await withApp(t);
    const anna = await steady.register('anna@example.com');
    const copy = anna.clone();
    assert.equal((await anna.post('/api/logout')).status, 200);
    assert.equal(await status(copy.clone()), 401);
    assert.equal(await status(sessionOnly(copy)), 401);
    steady.clock.advance(MINUTE);
    assert.equal(await status(copy), 401);
  });

  it('logout with an expired session and a valid remember-me cookie leaves no session or token behind', async (t) => {
    const steady = await withApp(t);
    const anna = await steady.register('anna@example.com');
    steady.clock.advance(DAY);
    const logout = await anna.post('/api/logout');
    assert.equal(logout.status, 200);
    assert.deepEqual(logout.body, { ok: true });
    // Only the two clearing cookies: logout never resolves the session, so remember-me is not rotated first.
    assert.deepEqual(logout.setCookies.map((line) => /^([^=]+)=;.*Max-Age=0/i.exec(line)?.[1]).sort(), [
      REMEMBER,
      SESSION,
    ]);
    const db = steady.deps.db;
    assert.deepEqual(await db.selectFrom('sessions').select('id').execute(), []);
    assert.deepEqual(await db.selectFrom('remember_tokens').select('id').execute(), []);
  });

  it('remember-me keeps a browser logged in for 30 days since its last use, not longer', async (t) => {
    const steady = await withApp(t);
    await steady.register('anna@example.com');
    const returning = await loggedIn(steady, 'anna@example.com');
    const away = await loggedIn(steady, 'anna@example.com');

    steady.clock.advance(30 * DAY - SECOND);
    assert.equal(await status(returning), 200);
    steady.clock.advance(SECOND);
    assert.equal(await status(away), 401);
    // The use at day 30 renewed the token for another 30 days.
    steady.clock.advance(30 * DAY - 2 * SECOND);
    assert.equal(await status(returning), 200);
  });

  it('change-password ends all other sessions and remember-me tokens; the current client continues on new cookies', async (t) => {
    const steady = await withApp(t);
    const anna = await steady.register('anna@example.com');
    const annaBefore = anna.clone();
    const phone = await loggedIn(steady, 'anna@example.com');
    const bert = await steady.register('bert@example.com');

    const change = await anna.post('/api/change-password', {
      old_password: PASSWORD,
      new_password: 'a new passphrase',
    });
    assert.equal(change.status, 200);
    assert.deepEqual(change.body, { ok: true });
    assert.deepEqual(change.setCookies.map((line) => line.split('=')[0]).sort(), [REMEMBER, SESSION]);

    assert.equal(await status(anna), 200);
    assert.equal(await status(phone.clone()), 401);
    assert.equal(await status(annaBefore), 401);
    assert.equal(await status(bert), 200);
    steady.clock.advance(DAY);
    // Her current remember-me token still works; the phone's does not.
    assert.equal(await status(anna), 200);
    assert.equal(await status(phone), 401);

    const other = steady.client();
    other.remoteAddress = '192.0.2.7';
    assert.equal((await other.post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 401);
    assert.equal(
      (await other.post('/api/login', { email: 'anna@example.com', password: 'a new passphrase' })).status,
      200,
    );
  });

  it('passwords are never trimmed: one with surrounding spaces works only exactly as given', async (t) => {
    const steady = await withApp(t);
    const spaced = '  spaced out  ';
    const anna = await steady.register('anna@example.com', { password: spaced });
    for (const attempt of ['spaced out', '  spaced out', 'spaced out  ']) {
      assert.equal(
        (await steady.client().post('/api/login', { email: 'anna@example.com', password: attempt })).status,
        401,
        attempt,
      );
    }
    assert.equal(
      (await steady.client().post('/api/login', { email: 'anna@example.com', password: spaced })).status,
      200,
    );

    const trimmedOld = await anna.post('/api/change-password', {
      old_password: 'spaced out',
      new_password: ' another one ',
    });
    assert.equal(trimmedOld.status, 400);
    assert.equal(trimmedOld.body.code, 'wrong_password');
    assert.equal(
      (await anna.post('/api/change-password', { old_password: spaced, new_password: ' another one ' })).status,
      200,
    );
    assert.equal(
      (await steady.client().post('/api/login', { email: 'anna@example.com', password: 'another one' })).status,
      401,
    );
    assert.equal(
      (await steady.client().post('/api/login', { email: 'anna@example.com', password: ' another one ' })).status,
      200,
    );
  });
});
