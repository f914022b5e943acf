import assert from 'node:assert/strict';
import { test } from 'node:test';
import { THROTTLE_RULES } from '../../../src/server/auth/throttle.js';
import { HOUR } from '../../../src/server/clock.js';
import { createTestApp } from '../../support/app.js';
import { resetPairFrom } from './support.js';

test('more than 3 reset mails an hour for one address from one client are dropped silently', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');

  for (let i = 1; i <= 4; i++) {
    // The spelling does not matter: the limit is per normalized address.
    const answer = await steady
      .client()
      .post('/api/reset-request', { email: i % 2 ? 'anna@example.com' : ' ANNA@example.com' });
    assert.equal(answer.status, 200);
    assert.equal(answer.text, '{"ok":true}');
    // The answer waits for the SMTP server, so a sent mail has arrived by now.
    assert.equal(steady.smtp.mails.length, Math.min(i, 3), `after request ${i}`);
  }

  // Another address is not affected.
  await steady.register('ben@example.com');
  await steady.client().post('/api/reset-request', { email: 'ben@example.com' });
  assert.equal(steady.smtp.mails.length, 4);

  // 20 minutes later one mail is allowed again.
  steady.clock.advance(HOUR / 3);
  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  assert.equal(steady.smtp.mails.length, 5);

  // A dropped request made no link either: Anna has one stored link per mail she got (none has expired yet), and
  // the newest works. Counted before the reset, which removes all of her links.
  const mailsToAnna = steady.smtp.mails.filter((mail) => mail.to.includes('anna@example.com')).length;
  assert.equal(mailsToAnna, 4);
  const annasResets = await steady.deps.db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .select('password_resets.id')
    .where('users.email', '=', 'anna@example.com')
    .execute();
  assert.equal(annasResets.length, mailsToAnna, 'no link was stored for the dropped request');
  const pair = resetPairFrom(steady.smtp.mails[4]!);
  assert.equal((await steady.client().post('/api/reset-password', { ...pair, password: 'new password!' })).status, 200);
});

test('more than 10 reset requests an hour from one client address are dropped silently', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');

  for (let i = 0; i < 10; i++) {
    const answer = await steady.client().post('/api/reset-request', { email: `nobody${i}@example.com` });
    assert.equal(answer.status, 200);
  }
  const throttled = await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  assert.equal(throttled.status, 200);
  assert.equal(throttled.text, '{"ok":true}');
  assert.equal(steady.smtp.mails.length, 0);

  steady.clock.advance(HOUR / 10);
  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  assert.equal(steady.smtp.mails.length, 1);
});

test("three strangers' requests do not stop the owner's reset mail; a looser cap per address still holds (issue 13)", async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');
  const perClient = THROTTLE_RULES.resetMailPerClientAndEmail.capacity;

  for (const stranger of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
    const client = steady.client();
    client.remoteAddress = stranger;
    // Each stranger spends their own allowance and then some.
    for (let i = 0; i <= perClient; i++)
      assert.equal((await client.post('/api/reset-request', { email: 'anna@example.com' })).status, 200);
  }
  assert.equal(steady.smtp.mails.length, 3 * perClient);

  const owner = steady.client();
  owner.remoteAddress = '198.51.100.7';
  assert.equal((await owner.post('/api/reset-request', { email: 'anna@example.com' })).status, 200);
  assert.equal(steady.smtp.mails.length, 3 * perClient + 1, "the owner's mail was sent");
  assert.equal(THROTTLE_RULES.resetMailPerEmail.capacity, 3 * perClient + 1);

  // The shared cap per address is spent now: a fourth stranger's request sends nothing.
  const fourth = steady.client();
  fourth.remoteAddress = '203.0.113.4';
  assert.equal((await fourth.post('/api/reset-request', { email: 'anna@example.com' })).status, 200);
  assert.equal(steady.smtp.mails.length, 3 * perClient + 1);
});
