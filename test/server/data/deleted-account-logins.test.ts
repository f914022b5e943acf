import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { HOUR } from '../../../src/server/clock.js';
import { REMEMBER_LIFETIME_MS, SESSION_LIFETIME_MS } from '../../../src/server/auth/session.js';
import { createHousekeeping } from '../../../src/server/ops/housekeeping.js';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

// Decision 0198: another device of a deleted account hears why it was logged out; nobody else learns anything.

// A new app per test: the second one counts every gone login the database holds.
let steady: TestApp;
beforeEach(async () => {
  steady = await createTestApp();
});
afterEach(() => steady.close());

async function loggedIn(email: string): Promise<TestClient> {
  const client = steady.client();
  assert.equal((await client.post('/api/login', { email, password: PASSWORD })).status, 200);
  return client;
}

/** A copy of the device's cookie jar holding only one of its two cookies. */
function onlyCookie(device: TestClient, name: 'steady_session' | 'steady_remember'): TestClient {
  const copy = device.clone();
  for (const key of [...copy.cookies.keys()]) if (key !== name) copy.cookies.delete(key);
  assert.equal(copy.cookies.size, 1);
  return copy;
}

const goneLogins = async () =>
  Number(
    (
      await steady.deps.db
        .selectFrom('gone_logins')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test("a deleted account's other devices get 401 account_deleted; ended sessions and unknown tokens a plain 401", async () => {
  const laptop = await steady.register('anna@example.com');
  const phone = await loggedIn('anna@example.com');
  const ben = await steady.register('ben@example.com');
  const bensOldSession = ben.clone();
  assert.equal((await ben.post('/api/logout', {})).status, 200);
  const stranger = steady.client();
  stranger.cookies.set('steady_session', 'ab'.repeat(32));
  stranger.cookies.set('steady_remember', `${'cd'.repeat(16)}.${'ef'.repeat(32)}`);

  const deleted = await laptop.request('DELETE', '/api/me', { password: PASSWORD });
  assert.equal(deleted.status, 200, deleted.text);

  for (const device of [phone, onlyCookie(phone, 'steady_session'), onlyCookie(phone, 'steady_remember')]) {
    for (const answer of [await device.get('/api/goals'), await device.post('/api/goals', { name: 'Water' })]) {
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, { error: 'This account was deleted', code: 'account_deleted' });
    }
    // GET /api/me keeps the spec's answer to the letter.
    const me = await device.get('/api/me');
    assert.equal(me.status, 401);
    assert.deepEqual(me.body, { ok: false });
  }
  // The deleting device's own cookies were cleared; a logged-out session, a made-up token, no cookie: not logged in.
  for (const device of [laptop, bensOldSession, stranger, steady.client()]) {
    const answer = await device.get('/api/goals');
    assert.equal(answer.status, 401);
    assert.equal(answer.body.code, 'unauthenticated');
  }
  // Only hashes are kept, no user id or address: the laptop's and the phone's session and remember-me token.
  const rows = await steady.deps.db.selectFrom('gone_logins').selectAll().execute();
  assert.equal(rows.length, 4);
  for (const row of rows) assert.match(row.token_hash, /^[0-9a-f]{64}$/);
  const cookieValues = [...phone.cookies.values()].flatMap((value) => value.split('.'));
  assert.ok(!rows.some((row) => cookieValues.includes(row.token_hash)), 'no token itself');
});

test('the gone logins last as long as their tokens would have, and housekeeping sweeps them', async () => {
  const laptop = await steady.register('carl@example.com');
  const phone = await loggedIn('carl@example.com');
  assert.equal((await laptop.request('DELETE', '/api/me', { password: PASSWORD })).status, 200);
  assert.equal(await goneLogins(), 4);
  const housekeeping = createHousekeeping(steady.deps, { warn: () => {} });
  const code = async (device: TestClient) => (await device.get('/api/goals')).body.code;

  steady.clock.advance(SESSION_LIFETIME_MS - HOUR);
  assert.equal(await code(onlyCookie(phone, 'steady_session')), 'account_deleted');
  steady.clock.advance(HOUR);
  // The session would have expired: its cookie says nothing more. The remember-me cookie still does.
  assert.equal(await code(onlyCookie(phone, 'steady_session')), 'unauthenticated');
  assert.equal(await code(phone), 'account_deleted');
  assert.equal((await housekeeping.run()).goneLogins, 2, 'the two sessions');

  steady.clock.advance(REMEMBER_LIFETIME_MS - SESSION_LIFETIME_MS - 1);
  assert.equal(await code(phone), 'account_deleted');
  steady.clock.advance(1);
  assert.equal(await code(phone), 'unauthenticated');
  assert.equal((await housekeeping.run()).goneLogins, 2, 'the two remember-me tokens');
  assert.equal(await goneLogins(), 0);
});
