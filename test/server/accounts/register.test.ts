import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countUsers } from '../../../src/server/accounts/store.js';
import { DAY, SECOND } from '../../../src/server/clock.js';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';

const INVITE_INVALID = { error: 'The invite link is not valid', code: 'invite_invalid', field: 'token' };
const INVITE_USED = { error: 'The invite has already been used', code: 'invite_used', field: 'token' };
const INVITE_EXPIRED = { error: 'The invite has expired', code: 'invite_expired', field: 'token' };
const EMAIL_TAKEN = { error: 'This e-mail address is already registered', code: 'email_taken', field: 'email' };
const INVALID_EMAIL = { error: 'email is not a valid e-mail address', code: 'invalid_email', field: 'email' };
const TOO_SHORT = { error: 'password must have at least 8 characters', code: 'password_too_short', field: 'password' };

/** A syntactically valid address of exactly `length` characters. */
function addressOfLength(length: number): string {
  const domain = `${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.example`; // 193 characters
  return `${'l'.repeat(length - domain.length - 1)}@${domain}`;
}

describe('POST /api/register', () => {
  let steady: TestApp;
  before(async () => {
    steady = await createTestApp();
    await steady.register('anna@example.com');
  });
  after(() => steady.close());

  const register = async (body: Record<string, unknown>) => {
    const client = steady.client();
    return { client, answer: await client.post('/api/register', body) };
  };

  it('registers, answers { ok, email, name } and logs the new user in at once', async () => {
    const { client, answer } = await register({
      email: ' Bert@Example.COM ',
      password: PASSWORD,
      token: await steady.inviteToken(),
      name: '  Bert B. ',
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { ok: true, email: 'bert@example.com', name: 'Bert B.' });
    const me = await client.get('/api/me');
    assert.equal(me.status, 200);
    assert.deepEqual(me.body, {
      ok: true,
      email: 'bert@example.com',
      id: me.body.id,
      name: 'Bert B.',
      locale: 'en',
      is_admin: false,
    });
  });

  it('stores an empty name when none, or only spaces, is given', async () => {
    for (const [email, name] of [
      ['carl@example.com', undefined],
      ['dora@example.com', '   '],
    ] as const) {
      const { client, answer } = await register({ email, password: PASSWORD, token: await steady.inviteToken(), name });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { ok: true, email, name: '' });
      assert.equal((await client.get('/api/me')).body.name, '');
    }
  });

  it('refuses an empty e-mail, password or token with 400 missing_field', async () => {
    const token = await steady.inviteToken();
    const valid = { email: 'emil@example.com', password: PASSWORD, token };
    for (const field of ['email', 'password', 'token'] as const) {
      for (const empty of field === 'password' ? [''] : ['', '  ']) {
        const { answer } = await register({ ...valid, [field]: empty });
        assert.equal(answer.status, 400, `${field}=${JSON.stringify(empty)}`);
        assert.deepEqual(answer.body, { error: `${field} must not be empty`, code: 'missing_field', field });
      }
    }
    // None of those spent the invite.
    assert.equal((await register(valid)).answer.status, 200);
  });

  it('refuses an unknown or malformed invite token with 400 invite_invalid', async () => {
    for (const token of ['abc', 'f'.repeat(64), (await steady.inviteToken()).toUpperCase()]) {
      const { answer } = await register({ email: 'fred@example.com', password: PASSWORD, token });
      assert.equal(answer.status, 400, token);
      assert.deepEqual(answer.body, INVITE_INVALID);
    }
  });

  it('refuses a used invite with 400 invite_used', async () => {
    const token = await steady.inviteToken();
    assert.equal((await register({ email: 'gina@example.com', password: PASSWORD, token })).answer.status, 200);
    const { answer } = await register({ email: 'hugo@example.com', password: PASSWORD, token });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, INVITE_USED);
  });

  it('accepts an invite until 7 days after its creation and refuses it with 400 invite_expired from then on', async (t) => {
    const other = await createTestApp();
    t.after(() => other.close());
    const lastSecond = await other.inviteToken();
    const expired = await other.inviteToken();
    other.clock.advance(7 * DAY - SECOND);
    const early = await other
      .client()
      .post('/api/register', { email: 'ida@example.com', password: PASSWORD, token: lastSecond });
    assert.equal(early.status, 200);
    other.clock.advance(SECOND);
    const late = await other
      .client()
      .post('/api/register', { email: 'jan@example.com', password: PASSWORD, token: expired });
    assert.equal(late.status, 400);
    assert.deepEqual(late.body, INVITE_EXPIRED);
  });

  it('refuses invalid e-mail addresses with 400 invalid_email', async () => {
    const token = await steady.inviteToken();
    for (const email of [
      'not-an-email',
      'a@b',
      'a b@example.com',
      '@example.com',
      'x@example.com\nBcc: y@example.com',
      'a..b@example.org',
      '.a@example.org',
      'a.@example.org',
      addressOfLength(255),
    ]) {
      const { answer } = await register({ email, password: PASSWORD, token });
      assert.equal(answer.status, 400, email);
      assert.deepEqual(answer.body, INVALID_EMAIL);
    }
    const longest = addressOfLength(254);
    const { answer } = await register({ email: longest, password: PASSWORD, token });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.email, longest);
  });

  it('refuses passwords under 8 characters, counted in code points, and over 256', async () => {
    const token = await steady.inviteToken();
    // '😀'.repeat(7) is 14 UTF-16 units, yet only 7 characters.
    for (const password of ['1234567', '😀'.repeat(7), '       ']) {
      const { answer } = await register({ email: 'kai@example.com', password, token });
      assert.equal(answer.status, 400, password);
      assert.deepEqual(answer.body, TOO_SHORT);
    }
    const tooLong = await register({ email: 'kai@example.com', password: 'p'.repeat(257), token });
    assert.equal(tooLong.answer.status, 400);
    assert.deepEqual(tooLong.answer.body, {
      error: 'password must have at most 256 characters',
      code: 'password_too_long',
      field: 'password',
    });

    const emoji = await register({ email: 'kai@example.com', password: '😀'.repeat(8), token });
    assert.equal(emoji.answer.status, 200);
    const login = await steady.client().post('/api/login', { email: 'kai@example.com', password: '😀'.repeat(8) });
    assert.equal(login.status, 200);
  });

  it('refuses a name over 100 characters with 400 name_too_long', async () => {
    const token = await steady.inviteToken();
    const { answer } = await register({ email: 'lea@example.com', password: PASSWORD, token, name: 'n'.repeat(101) });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, {
      error: 'name must have at most 100 characters',
      code: 'name_too_long',
      field: 'name',
    });
  });

  it('answers 409 email_taken for a registered address, also in other case and with spaces', async () => {
    const token = await steady.inviteToken();
    for (const email of ['anna@example.com', ' ANNA@Example.Com ']) {
      const { answer } = await register({ email, password: PASSWORD, token });
      assert.equal(answer.status, 409, email);
      assert.deepEqual(answer.body, EMAIL_TAKEN);
    }
  });

  it('leaves the invite pending after a failed registration: it still works afterwards', async () => {
    const token = await steady.inviteToken();
    const failures = [
      [{ email: 'bad', password: PASSWORD, token }, 400],
      [{ email: 'mia@example.com', password: 'short', token }, 400],
      [{ email: 'Anna@example.com', password: PASSWORD, token }, 409],
    ] as const;
    for (const [body, status] of failures) assert.equal((await register(body)).answer.status, status);
    const { answer } = await register({ email: 'mia@example.com', password: PASSWORD, token });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { ok: true, email: 'mia@example.com', name: '' });
  });

  it('of ten parallel registrations with one invite exactly one succeeds and one user is created', async (t) => {
    const other = await createTestApp();
    t.after(() => other.close());
    const token = await other.inviteToken();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        other.client().post('/api/register', { email: `racer${i}@example.com`, password: PASSWORD, token }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
    for (const loser of answers.filter((a) => a.status === 400)) assert.deepEqual(loser.body, INVITE_USED);
    assert.equal(await countUsers(other.deps.db), 1);
  });

  it('of parallel registrations of one address with different invites, one succeeds; the others stay pending', async (t) => {
    const other = await createTestApp();
    t.after(() => other.close());
    const tokens = await Promise.all(Array.from({ length: 5 }, () => other.inviteToken()));
    const answers = await Promise.all(
      tokens.map((token) =>
        other.client().post('/api/register', { email: 'twin@example.com', password: PASSWORD, token }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409, 409, 409]);
    for (const loser of answers.filter((a) => a.status === 409)) assert.deepEqual(loser.body, EMAIL_TAKEN);
    assert.equal(await countUsers(other.deps.db), 1);
    // Every losing invite was rolled back to pending and still registers someone else.
    const losers = tokens.filter((_, i) => answers[i]!.status === 409);
    for (const [i, token] of losers.entries()) {
      const answer = await other
        .client()
        .post('/api/register', { email: `sibling${i}@example.com`, password: PASSWORD, token });
      assert.equal(answer.status, 200, `invite ${i} should still be pending`);
    }
  });
});
