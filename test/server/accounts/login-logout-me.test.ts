import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { THROTTLE_RULES } from '../../../src/server/auth/throttle.js';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';

const WRONG_CREDENTIALS = { error: 'Wrong e-mail or password', code: 'invalid_credentials' };
const NOT_LOGGED_IN = { error: 'Not logged in', code: 'unauthenticated' };

describe('POST /api/login, POST /api/logout, GET /api/me', () => {
  let steady: TestApp;
  let addressCount = 0;
  // Every test logs in from its own address, so the per-address login throttle never decides a result here.
  const freshClient = () => {
    const client = steady.client();
    client.remoteAddress = `198.51.100.${++addressCount}`;
    return client;
  };

  before(async () => {
    // The configured administrator address is messy on purpose: it must be compared trimmed and case-insensitively.
    steady = await createTestApp({ ADMIN_EMAIL: '  Boss@Example.COM ' });
    await steady.register('anna@example.com', { name: 'Anna' });
    await steady.register('BOSS@example.com');
    await steady.register('nameless@example.com');
  });
  after(() => steady.close());

  it('logs in with { ok, email, name }, whatever the case and spaces of the e-mail', async () => {
    const client = freshClient();
    const login = await client.post('/api/login', { email: '  ANNA@Example.com ', password: PASSWORD });
    assert.equal(login.status, 200);
    assert.deepEqual(login.body, { ok: true, email: 'anna@example.com', name: 'Anna' });
    assert.equal((await client.get('/api/me')).status, 200);
  });

  it('answers 401 with the identical body for a wrong password and an unknown e-mail, and sets no cookie', async () => {
    const wrongPassword = await freshClient().post('/api/login', {
      email: 'anna@example.com',
      password: `${PASSWORD}x`,
    });
    const unknownEmail = await freshClient().post('/api/login', { email: 'nobody@example.com', password: PASSWORD });
    for (const answer of [wrongPassword, unknownEmail]) {
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, WRONG_CREDENTIALS);
      assert.deepEqual(answer.setCookies, []);
    }
    assert.equal(wrongPassword.text, unknownEmail.text);
  });

  it('refuses an empty e-mail or password with 400 missing_field', async () => {
    const client = freshClient();
    assert.deepEqual((await client.post('/api/login', { email: ' ', password: PASSWORD })).body, {
      error: 'email must not be empty',
      code: 'missing_field',
      field: 'email',
    });
    const noPassword = await client.post('/api/login', { email: 'anna@example.com', password: '' });
    assert.equal(noPassword.status, 400);
    assert.deepEqual(noPassword.body, {
      error: 'password must not be empty',
      code: 'missing_field',
      field: 'password',
    });
    const missing = await client.post('/api/login', { email: 'anna@example.com' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'password is required', code: 'invalid_input', field: 'password' });
  });

  it('empty fields spend no login attempt: after 30 of them a real login from that address works (decision 0009)', async () => {
    const client = freshClient();
    assert.ok(30 > THROTTLE_RULES.loginPerAddress.capacity);
    for (let n = 0; n < 15; n++) {
      assert.equal((await client.post('/api/login', { email: '', password: PASSWORD })).status, 400);
      assert.equal((await client.post('/api/login', { email: 'anna@example.com', password: '' })).status, 400);
    }
    const login = await client.post('/api/login', { email: 'anna@example.com', password: PASSWORD });
    assert.equal(login.status, 200);
    assert.deepEqual(login.body, { ok: true, email: 'anna@example.com', name: 'Anna' });
  });

  it('GET /api/me answers exactly { ok: false } with 401 without a session', async () => {
    const me = await freshClient().get('/api/me');
    assert.equal(me.status, 401);
    assert.deepEqual(me.body, { ok: false });
  });

  it('GET /api/me gives { ok, email, id, name, locale, is_admin } with name "" when never set', async () => {
    const client = freshClient();
    await client.post('/api/login', { email: 'nameless@example.com', password: PASSWORD });
    const me = await client.get('/api/me');
    assert.equal(me.status, 200);
    assert.equal(typeof me.body.id, 'number');
    assert.ok(Number.isInteger(me.body.id));
    assert.deepEqual(me.body, {
      ok: true,
      email: 'nameless@example.com',
      id: me.body.id,
      name: '',
      locale: 'en',
      is_admin: false,
    });
  });

  it('reports is_admin true exactly for ADMIN_EMAIL, compared trimmed and case-insensitively', async () => {
    const boss = freshClient();
    await boss.post('/api/login', { email: 'boss@EXAMPLE.com', password: PASSWORD });
    const bossMe = await boss.get('/api/me');
    assert.equal(bossMe.body.email, 'boss@example.com');
    assert.equal(bossMe.body.is_admin, true);

    const anna = freshClient();
    await anna.post('/api/login', { email: 'anna@example.com', password: PASSWORD });
    assert.equal((await anna.get('/api/me')).body.is_admin, false);
  });

  it('reports is_admin false for everyone when ADMIN_EMAIL is not set', async (t) => {
    const other = await createTestApp({ ADMIN_EMAIL: '' });
    t.after(() => other.close());
    const admin = await other.register('admin@example.com');
    assert.equal((await admin.get('/api/me')).body.is_admin, false);
  });

  it('logout answers { ok: true }, clears both cookies and ends the session', async () => {
    const client = freshClient();
    await client.post('/api/login', { email: 'anna@example.com', password: PASSWORD });
    const logout = await client.post('/api/logout');
    assert.equal(logout.status, 200);
    assert.deepEqual(logout.body, { ok: true });
    const cleared = logout.setCookies.map((line) => line.split('=')[0]).sort();
    assert.deepEqual(cleared, ['steady_remember', 'steady_session']);
    assert.ok(logout.setCookies.every((line) => /Max-Age=0/i.test(line)));
    assert.equal(client.cookies.size, 0);
    assert.deepEqual((await client.get('/api/me')).body, { ok: false });
  });

  it('logout without a session still answers 200 { ok: true }', async () => {
    const logout = await freshClient().post('/api/logout');
    assert.equal(logout.status, 200);
    assert.deepEqual(logout.body, { ok: true });
  });

  it('a private route answers 401 { error, code } without a session', async () => {
    const answer = await freshClient().patch('/api/me', { name: 'X' });
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, NOT_LOGGED_IN);
  });
});
