import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/app.js';
import { startSmtpReceiver } from '../../support/smtp-receiver.js';
import { closedPort } from './support.js';

const MAIL_FAILED = { error: 'The mail could not be sent; try again later', code: 'mail_failed' };

async function pendingResets(steady: TestApp): Promise<number> {
  return (await steady.deps.db.selectFrom('password_resets').select('id').execute()).length;
}

test('a mail server that refuses the message: 500 mail_failed for a known address, and no link is left', async (t) => {
  const refusing = await startSmtpReceiver({ refuse: true });
  const steady = await createTestApp({ SMTP_URL: refusing.url });
  t.after(async () => {
    await steady.close();
    await refusing.close();
  });
  await steady.register('anna@example.com');

  const answer = await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  assert.equal(answer.status, 500);
  assert.deepEqual(answer.body, MAIL_FAILED);
  assert.equal(await pendingResets(steady), 0);
  assert.equal(refusing.mails.length, 0);
});

test('an unreachable mail server: 500 mail_failed for known and unknown addresses alike', async (t) => {
  const port = await closedPort();
  const steady = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  t.after(() => steady.close());
  await steady.register('anna@example.com');

  const known = await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const unknown = await steady.client().post('/api/reset-request', { email: 'nobody@example.com' });
  for (const answer of [known, unknown]) {
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.body, MAIL_FAILED);
  }
  assert.equal(known.text, unknown.text);
  assert.equal(await pendingResets(steady), 0);
});
