import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { THROTTLE_RULES } from '../../../src/server/auth/throttle.js';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';

describe('POST /api/change-password', () => {
  let steady: TestApp;
  before(async () => {
    steady = await createTestApp();
  });
  after(() => steady.close());

  const loginStatus = async (email: string, password: string) =>
    (await steady.client().post('/api/login', { email, password })).status;

  it('changes the password: { ok: true }, the old one stops working, the new one works', async () => {
    const anna = await steady.register('anna@example.com');
    const answer = await anna.post('/api/change-password', {
      old_password: PASSWORD,
      new_password: 'brand new secret',
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { ok: true });
    assert.equal(await loginStatus('anna@example.com', PASSWORD), 401);
    assert.equal(await loginStatus('anna@example.com', 'brand new secret'), 200);
  });

  it('refuses an empty field with 400 missing_field and changes nothing', async () => {
    const bert = await steady.register('bert@example.com');
    for (const [body, field] of [
      [{ old_password: '', new_password: 'brand new secret' }, 'old_password'],
      [{ old_password: PASSWORD, new_password: '' }, 'new_password'],
    ] as const) {
      const answer = await bert.post('/api/change-password', body);
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, { error: `${field} must not be empty`, code: 'missing_field', field });
    }
    const missing = await bert.post('/api/change-password', { old_password: PASSWORD });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'new_password is required', code: 'invalid_input', field: 'new_password' });
    assert.equal(await loginStatus('bert@example.com', PASSWORD), 200);
  });

  it('refuses a new password under 8 characters (code points) with 400 password_too_short', async () => {
    const carl = await steady.register('carl@example.com');
    for (const short of ['1234567', '🔑'.repeat(7)]) {
      const answer = await carl.post('/api/change-password', { old_password: PASSWORD, new_password: short });
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, {
        error: 'new_password must have at least 8 characters',
        code: 'password_too_short',
        field: 'new_password',
      });
    }
    assert.equal(await loginStatus('carl@example.com', PASSWORD), 200);
  });

  it('a too-short new password costs no attempt: after more refusals than the limit, the change still works (decision 0009)', async () => {
    const emil = await steady.register('emil@example.com');
    const refusals = 2 * THROTTLE_RULES.changePasswordPerSession.capacity;
    for (let n = 0; n < refusals; n++) {
      const answer = await emil.post('/api/change-password', { old_password: PASSWORD, new_password: 'short' });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'password_too_short');
    }
    const change = await emil.post('/api/change-password', {
      old_password: PASSWORD,
      new_password: 'brand new secret',
    });
    assert.equal(change.status, 200);
    assert.deepEqual(change.body, { ok: true });
  });

  it('refuses a wrong old password with 400 wrong_password and keeps the session', async () => {
    const dora = await steady.register('dora@example.com');
    const answer = await dora.post('/api/change-password', {
      old_password: `${PASSWORD}!`,
      new_password: 'brand new secret',
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, {
      error: 'The current password is wrong',
      code: 'wrong_password',
      field: 'old_password',
    });
    assert.equal((await dora.get('/api/me')).status, 200);
    assert.equal(await loginStatus('dora@example.com', PASSWORD), 200);
  });

  it('answers 401 without a session', async () => {
    const answer = await steady
      .client()
      .post('/api/change-password', { old_password: PASSWORD, new_password: 'brand new secret' });
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, { error: 'Not logged in', code: 'unauthenticated' });
  });
});
