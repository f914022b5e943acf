import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOUR } from '../../../src/server/clock.js';
import { createTestApp } from '../../support/app.js';
import { resetPairFrom } from './support.js';

test('more than 3 reset mails an hour for one address are dropped silently', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');

  for (let i = 1; i <= 4; i++) {
    // The spelling does not matter: the limit is per normalized address.
    const answer = await steady.client().post('/api/reset-request', { email: i % 2 ? 'anna@example.com' : ' ANNA@example.com' });
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
