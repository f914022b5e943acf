import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN_EMAIL, createTestApp, PASSWORD } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';
import { resetPairFrom } from '../reset/support.js';

const NEW_PASSWORD = 'brand new secret';

async function status(client: TestClient): Promise<number> {
  return (await client.get('/api/me')).status;
}

function withoutCookie(client: TestClient, name: string): TestClient {
  const copy = client.clone();
  copy.cookies.delete(name);
  return copy;
}

/** The token of an invite link. */
const tokenOf = (url: string) => new URL(url).searchParams.get('invite')!;

describe('issue 13: account hardening', () => {
  it('a reset link asked for before a password change no longer resets after it (point 3)', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    assert.equal((await steady.client().post('/api/reset-request', { email: 'anna@example.com' })).status, 200);
    const pair = resetPairFrom(await steady.smtp.nextMail());

    assert.equal(
      (await anna.post('/api/change-password', { old_password: PASSWORD, new_password: NEW_PASSWORD })).status,
      200,
    );
    const reset = await steady.client().post('/api/reset-password', { ...pair, password: 'the attackers choice' });
    assert.equal(reset.status, 400);
    assert.equal(reset.body.code, 'reset_invalid');
    assert.equal(
      (await steady.client().post('/api/login', { email: 'anna@example.com', password: NEW_PASSWORD })).status,
      200,
    );
  });

  it('POST /api/sessions/logout-others ends every other session and remember-me token, and keeps this one (point 8)', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const laptop = await steady.register('anna@example.com');
    const phone = steady.client();
    assert.equal((await phone.post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 200);
    const bert = await steady.register('bert@example.com');

    const answer = await laptop.post('/api/sessions/logout-others');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { ok: true });

    assert.equal(await status(withoutCookie(phone, 'steady_remember')), 401, "the phone's session ended");
    assert.equal(await status(withoutCookie(phone, 'steady_session')), 401, "the phone's remember-me token ended");
    assert.equal(await status(withoutCookie(laptop, 'steady_remember')), 200, 'this session goes on');
    assert.equal(await status(withoutCookie(laptop, 'steady_session')), 200, 'and so does its remember-me login');
    assert.equal(await status(bert), 200, 'other users are not touched');
    assert.equal((await steady.client().post('/api/sessions/logout-others')).status, 401);
  });

  it("registering the ADMIN_EMAIL address needs an operator's invite; a user's invite answers 400 (point 9)", async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');

    for (const email of [ADMIN_EMAIL, ` ${ADMIN_EMAIL.toUpperCase()} `, 'Admin@Example.com']) {
      const invite = await anna.post('/api/invite', {});
      const answer = await steady
        .client()
        .post('/api/register', { email, password: PASSWORD, token: tokenOf(invite.body.url) });
      assert.equal(answer.status, 400, email);
      assert.deepEqual(answer.body, {
        error: "The administrator's address can only be registered with an operator's invite",
        code: 'admin_email_needs_operator_invite',
      });
      // The invite was not spent: it still registers an ordinary address.
      const other = await steady.client().post('/api/register', {
        email: `friend-${email.trim().length}-${Math.random()}@example.com`.toLowerCase(),
        password: PASSWORD,
        token: tokenOf(invite.body.url),
      });
      assert.equal(other.status, 200, other.text);
    }

    // The operator's invite (the CLI and the first-start invite make these) registers it.
    const admin = await steady
      .client()
      .post('/api/register', { email: ADMIN_EMAIL, password: PASSWORD, token: await steady.inviteToken() });
    assert.equal(admin.status, 200, admin.text);
  });
});
