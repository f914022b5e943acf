import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SECOND } from '../../../src/server/clock.js';
import { THROTTLE_RULES } from '../../../src/server/auth/throttle.js';
import { createTestApp, PASSWORD } from '../../support/app.js';
import type { TestClient, TestResponse } from '../../support/client.js';

/** Sends `attempt` until it answers 429 or `limit` attempts are spent; returns the 429 and how many it took. */
async function attemptUntilThrottled(attempt: () => Promise<TestResponse>, limit = 30) {
  for (let n = 1; n <= limit; n++) {
    const answer = await attempt();
    if (answer.status === 429) return { answer, attempts: n };
  }
  throw new Error(`no 429 within ${limit} attempts`);
}

function assertTooManyAttempts(answer: TestResponse, retryAfterSeconds: number): void {
  assert.equal(answer.status, 429);
  assert.equal(answer.headers['retry-after'], String(retryAfterSeconds));
  assert.deepEqual(answer.body, {
    error: `Too many attempts, try again later (in ${retryAfterSeconds} s)`,
    code: 'too_many_attempts',
  });
}

describe('throttling', () => {
  it('login: wrong passwords from one address reach 429 with Retry-After; the owner still logs in from another', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    await steady.register('anna@example.com');
    const attacker: TestClient = steady.client();
    attacker.remoteAddress = '203.0.113.66';
    const owner = steady.client();
    owner.remoteAddress = '198.51.100.7';

    const { answer, attempts } = await attemptUntilThrottled(() =>
      attacker.post('/api/login', { email: 'anna@example.com', password: `guess ${Math.random()}` }),
    );
    assert.equal(attempts, THROTTLE_RULES.loginPerAddress.capacity + 1);
    const retryAfter = THROTTLE_RULES.loginPerAddress.refillMs / SECOND;
    assertTooManyAttempts(answer, retryAfter);
    // Even the right password is refused from the throttled address: the limit is not a password oracle.
    assertTooManyAttempts(
      await attacker.post('/api/login', { email: 'anna@example.com', password: PASSWORD }),
      retryAfter,
    );
    // Unknown addresses spend the same attempts, so 429 says nothing about which accounts exist.
    assertTooManyAttempts(
      await attacker.post('/api/login', { email: 'nobody@example.com', password: PASSWORD }),
      retryAfter,
    );

    const ownerLogin = await owner.post('/api/login', { email: 'anna@example.com', password: PASSWORD });
    assert.equal(ownerLogin.status, 200);

    steady.clock.advance(retryAfter * SECOND - 1);
    assert.equal((await attacker.post('/api/login', { email: 'anna@example.com', password: 'guess' })).status, 429);
    steady.clock.advance(1);
    const afterWaiting = await attacker.post('/api/login', { email: 'anna@example.com', password: 'guess again' });
    assert.equal(afterWaiting.status, 401);
    assert.equal((await attacker.post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 429);
  });

  it('change-password: wrong old passwords reach 429 with Retry-After; after waiting it works again', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');

    const { answer, attempts } = await attemptUntilThrottled(() =>
      anna.post('/api/change-password', { old_password: 'not my password', new_password: 'brand new secret' }),
    );
    assert.equal(attempts, THROTTLE_RULES.changePasswordPerSession.capacity + 1);
    const retryAfter = THROTTLE_RULES.changePasswordPerSession.refillMs / SECOND;
    assertTooManyAttempts(answer, retryAfter);
    assertTooManyAttempts(
      await anna.post('/api/change-password', { old_password: PASSWORD, new_password: 'brand new secret' }),
      retryAfter,
    );

    steady.clock.advance(retryAfter * SECOND);
    const afterWaiting = await anna.post('/api/change-password', {
      old_password: PASSWORD,
      new_password: 'brand new secret',
    });
    assert.equal(afterWaiting.status, 200);
    assert.deepEqual(afterWaiting.body, { ok: true });
  });

  it('change-password attempts count per session: a copied cookie that spent them does not lock the owner out (issue 13)', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const owner = await steady.register('anna@example.com');
    const thief = owner.clone();
    thief.cookies.delete('steady_remember');
    const { attempts } = await attemptUntilThrottled(() =>
      thief.post('/api/change-password', { old_password: 'not my password', new_password: 'brand new secret' }),
    );
    assert.equal(attempts, THROTTLE_RULES.changePasswordPerSession.capacity + 1);

    // The owner logs in again (a new session) and can change the password at once.
    const again = steady.client();
    assert.equal((await again.post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 200);
    const change = await again.post('/api/change-password', {
      old_password: PASSWORD,
      new_password: 'brand new secret',
    });
    assert.equal(change.status, 200, change.text);
    assert.equal((await thief.get('/api/me')).status, 401);
  });

  it('parallel wrong logins never get more attempts than the bucket holds', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    await steady.register('anna@example.com');
    const attacker = steady.client();
    attacker.remoteAddress = '203.0.113.99';
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        attacker.post('/api/login', { email: 'anna@example.com', password: 'parallel guess' }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 401).length, THROTTLE_RULES.loginPerAddress.capacity);
    assert.equal(statuses.filter((s) => s === 429).length, 25 - THROTTLE_RULES.loginPerAddress.capacity);
  });
});
