import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOUR } from '../../../src/server/clock.js';
import { createTestApp, PASSWORD } from '../../support/app.js';
import { resetPairFrom } from './support.js';

const NEW_PASSWORD = 'a brand new secret';

test('happy path: the mailed link sets a new password; the old one stops working', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');

  const requested = await steady.client().post('/api/reset-request', { email: '  ANNA@example.com ' });
  assert.equal(requested.status, 200);
  assert.deepEqual(requested.body, { ok: true });
  const mail = await steady.smtp.nextMail();
  assert.deepEqual(mail.to, ['anna@example.com']);
  assert.match(mail.raw, /^Subject: Reset your Steady password\r?$/m);
  assert.match(mail.raw, /multipart\/alternative/);
  assert.match(mail.raw, /Content-Type: text\/plain/);
  assert.match(mail.raw, /Content-Type: text\/html/);
  const pair = resetPairFrom(mail);
  assert.ok(mail.decoded.includes(`href="${pair.link.replace('&', '&amp;')}"`), 'the HTML part links the same URL');

  const reset = await steady.client().post('/api/reset-password', { ...pair, password: NEW_PASSWORD });
  assert.equal(reset.status, 200);
  assert.deepEqual(reset.body, { ok: true });
  assert.deepEqual(reset.setCookies, [], 'a reset does not log anybody in');

  const oldLogin = await steady.client().post('/api/login', { email: 'anna@example.com', password: PASSWORD });
  assert.equal(oldLogin.status, 401);
  const newLogin = await steady.client().post('/api/login', { email: 'anna@example.com', password: NEW_PASSWORD });
  assert.equal(newLogin.status, 200);
});

test('the reset ends every session and remember-me login of the user', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const laptop = await steady.register('anna@example.com');
  const phone = steady.client();
  assert.equal((await phone.post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 200);
  const ben = await steady.register('ben@example.com');

  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const pair = resetPairFrom(await steady.smtp.nextMail());
  assert.equal((await steady.client().post('/api/reset-password', { ...pair, password: NEW_PASSWORD })).status, 200);

  for (const client of [laptop, phone]) {
    const me = await client.get('/api/me');
    assert.equal(me.status, 401);
    assert.deepEqual(me.body, { ok: false });
    const invites = await client.get('/api/invites');
    assert.equal(invites.status, 401);
  }
  assert.equal((await ben.get('/api/me')).status, 200, 'other users stay logged in');
});

test("a reset link works once, and using it removes the user's other pending links", async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');

  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const older = resetPairFrom(await steady.smtp.nextMail(0));
  const newer = resetPairFrom(await steady.smtp.nextMail(1));
  assert.notEqual(older.selector, newer.selector);

  assert.equal((await steady.client().post('/api/reset-password', { ...newer, password: NEW_PASSWORD })).status, 200);
  for (const pair of [newer, older]) {
    const again = await steady.client().post('/api/reset-password', { ...pair, password: 'yet another password' });
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { error: 'The reset link is not valid', code: 'reset_invalid', field: 'token' });
  }
  const login = await steady.client().post('/api/login', { email: 'anna@example.com', password: NEW_PASSWORD });
  assert.equal(login.status, 200);
});

test('a reset link is valid for 24 hours', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');
  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const first = resetPairFrom(await steady.smtp.nextMail(0));
  const second = resetPairFrom(await steady.smtp.nextMail(1));

  steady.clock.advance(24 * HOUR);
  const expired = await steady.client().post('/api/reset-password', { ...first, password: NEW_PASSWORD });
  assert.equal(expired.status, 400);
  assert.deepEqual(expired.body, { error: 'The reset link has expired', code: 'reset_expired', field: 'token' });
  const login = await steady.client().post('/api/login', { email: 'anna@example.com', password: PASSWORD });
  assert.equal(login.status, 200, 'the password is unchanged');

  // One millisecond before its end a link still works (the second one was made at the same instant).
  steady.clock.advance(-1);
  assert.equal((await steady.client().post('/api/reset-password', { ...second, password: NEW_PASSWORD })).status, 200);
});

test('a wrong token or an unknown selector is refused and changes nothing', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');
  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const pair = resetPairFrom(await steady.smtp.nextMail());

  const wrongToken = { selector: pair.selector, token: 'f'.repeat(64), password: NEW_PASSWORD };
  const unknownSelector = { selector: '0'.repeat(32), token: pair.token, password: NEW_PASSWORD };
  const swapped = { selector: pair.token, token: pair.selector, password: NEW_PASSWORD };
  for (const body of [wrongToken, unknownSelector, swapped]) {
    const answer = await steady.client().post('/api/reset-password', body);
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { error: 'The reset link is not valid', code: 'reset_invalid', field: 'token' });
  }
  // A wrong guess does not spend the real link.
  assert.equal((await steady.client().post('/api/reset-password', { ...pair, password: NEW_PASSWORD })).status, 200);
});

test('reset-password validates its fields and the password rules before the link', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');
  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const pair = resetPairFrom(await steady.smtp.nextMail());
  const client = steady.client();

  for (const field of ['selector', 'token', 'password'] as const) {
    const answer = await client.post('/api/reset-password', { ...pair, password: NEW_PASSWORD, [field]: '' });
    assert.equal(answer.status, 400, field);
    assert.deepEqual(answer.body, { error: `${field} must not be empty`, code: 'missing_field', field });
  }
  const missing = await client.post('/api/reset-password', { selector: pair.selector, token: pair.token });
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { error: 'password is required', code: 'invalid_input', field: 'password' });

  const short = await client.post('/api/reset-password', { ...pair, password: '1234567' });
  assert.equal(short.status, 400);
  assert.deepEqual(short.body, {
    error: 'password must have at least 8 characters',
    code: 'password_too_short',
    field: 'password',
  });
  const long = await client.post('/api/reset-password', { ...pair, password: 'x'.repeat(257) });
  assert.equal(long.status, 400);
  assert.deepEqual(long.body, {
    error: 'password must have at most 256 characters',
    code: 'password_too_long',
    field: 'password',
  });

  // None of the refused attempts spent the link; exactly 8 characters are enough.
  assert.equal((await client.post('/api/reset-password', { ...pair, password: '12345678' })).status, 200);
});

test("the mail comes in the user's language", async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const phrases = { de: 'Neues Passwort wählen', pl: 'Ustaw nowe hasło', en: 'Choose a new password' };
  let seen = 0;
  for (const [locale, phrase] of Object.entries(phrases)) {
    const user = await steady.register(`${locale}@example.com`);
    assert.equal((await user.patch('/api/me', { locale })).status, 200);
    await steady.client().post('/api/reset-request', { email: `${locale}@example.com` });
    const mail = await steady.smtp.nextMail(seen++);
    assert.ok(mail.decoded.includes(phrase), `${locale}: ${mail.decoded}`);
    resetPairFrom(mail);
  }
});

test('known and unknown addresses get the same answer; only the known one gets a mail', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');

  const known = await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const unknown = await steady.client().post('/api/reset-request', { email: 'nobody@example.com' });
  const malformed = await steady.client().post('/api/reset-request', { email: 'not an address' });
  for (const answer of [known, unknown, malformed]) {
    assert.equal(answer.status, 200);
    assert.equal(answer.text, '{"ok":true}');
    assert.deepEqual(answer.setCookies, []);
  }
  assert.equal(steady.smtp.mails.length, 1);
  assert.deepEqual(steady.smtp.mails[0]!.to, ['anna@example.com']);
});

test('reset-request needs a non-empty e-mail', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  for (const email of ['', '   ']) {
    const answer = await steady.client().post('/api/reset-request', { email });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { error: 'email must not be empty', code: 'missing_field', field: 'email' });
  }
  const missing = await steady.client().post('/api/reset-request', {});
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { error: 'email is required', code: 'invalid_input', field: 'email' });
  assert.equal(steady.smtp.mails.length, 0);
});

test('two parallel uses of one link: exactly one succeeds', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');
  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const pair = resetPairFrom(await steady.smtp.nextMail());

  const answers = await Promise.all(
    ['first parallel password', 'second parallel password'].map((password) =>
      steady.client().post('/api/reset-password', { ...pair, password }),
    ),
  );
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400]);
  const loser = answers.find((a) => a.status === 400)!;
  assert.equal(loser.body.code, 'reset_invalid');
  const winner = answers[0]!.status === 200 ? 'first parallel password' : 'second parallel password';
  assert.equal((await steady.client().post('/api/login', { email: 'anna@example.com', password: winner })).status, 200);
});
