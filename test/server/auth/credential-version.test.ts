import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { hashPassword } from '../../../src/server/auth/passwords.js';
import { createTestApp, PASSWORD } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

const NEW_PASSWORD = 'brand new secret';

/** Whether `client` is still logged in through its session cookie, or through its remember-me cookie alone. */
async function stillLoggedIn(client: TestClient): Promise<{ session: boolean; remember: boolean }> {
  const sessionOnly = client.clone();
  sessionOnly.cookies.delete('steady_remember');
  const rememberOnly = client.clone();
  rememberOnly.cookies.delete('steady_session');
  return {
    session: (await sessionOnly.get('/api/me')).status === 200,
    remember: (await rememberOnly.get('/api/me')).status === 200,
  };
}

/** How long one argon2 hash takes on this machine: the scale of the race window (calibration, not an assertion). */
async function timeOneHash(): Promise<number> {
  const started = performance.now();
  await hashPassword(PASSWORD);
  return performance.now() - started;
}

describe('credential version (issue 13 point 2)', () => {
  it('a login with the old password racing a password change leaves no session or remember-me token behind', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    // The change verifies the old password and hashes the new one (two argon2 runs) before it writes. The delays
    // put the login's read of the old hash at many points of that, around the write in particular.
    const argon2Ms = await timeOneHash();
    const delays = Array.from({ length: 14 }, (_, step) => Math.round((step * argon2Ms) / 4));
    for (const [round, delayMs] of delays.entries()) {
      const email = `race${round}@example.com`;
      const owner = await steady.register(email);
      const attacker = steady.client();
      attacker.remoteAddress = `198.51.100.${round + 1}`; // the login limit is per address; this is not about it
      const change = owner.post('/api/change-password', { old_password: PASSWORD, new_password: NEW_PASSWORD });
      await sleep(delayMs);
      const login = await attacker.post('/api/login', { email, password: PASSWORD });
      assert.equal((await change).status, 200);
      if (login.status === 200) {
        assert.deepEqual(await stillLoggedIn(attacker), { session: false, remember: false }, `delay ${delayMs} ms`);
      } else {
        assert.equal(login.status, 401, login.text);
      }
      assert.deepEqual(await stillLoggedIn(owner), { session: true, remember: true }, `the owner, delay ${delayMs} ms`);
    }
  });

  it('a session and remember-me token from before a password change stop working, though their rows were kept', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const owner = await steady.register('anna@example.com');
    const other = steady.client();
    assert.equal((await other.post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 200);
    // Keep copies of the other device's rows, as a login that wrote them after the change's clean-up would leave them.
    const sessions = await steady.deps.db.selectFrom('sessions').selectAll().execute();
    const tokens = await steady.deps.db.selectFrom('remember_tokens').selectAll().execute();
    assert.equal(
      (await owner.post('/api/change-password', { old_password: PASSWORD, new_password: NEW_PASSWORD })).status,
      200,
    );
    await steady.deps.db.deleteFrom('sessions').execute();
    await steady.deps.db.deleteFrom('remember_tokens').execute();
    await steady.deps.db.insertInto('sessions').values(sessions).execute();
    await steady.deps.db.insertInto('remember_tokens').values(tokens).execute();
    assert.deepEqual(await stillLoggedIn(other), { session: false, remember: false });
  });
});
