import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { outboxMailer } from '../../../src/server/mail/transport.js';

test('the outbox writes header values on one line: a newline in a subject starts no header of its own', async (t) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-outbox-'));
  t.after(() => fs.rmSync(folder, { recursive: true, force: true }));
  await outboxMailer(folder, pino({ level: 'silent' })).send({
    to: 'anna@example.org',
    subject: 'Push-ups\r\nBcc: evil@example.org',
    text: 'Hello,\n',
    html: '<p>Hello,</p>',
    headers: { 'List-Unsubscribe': '<https://steady.example.org/off>\nX-Evil: 1' },
  });
  const [file] = fs.readdirSync(folder);
  const head = fs.readFileSync(path.join(folder, file!), 'utf8').split('\n\n')[0]!;
  assert.deepEqual(head.split('\n'), [
    'To: anna@example.org',
    'Subject: Push-ups Bcc: evil@example.org',
    'List-Unsubscribe: <https://steady.example.org/off> X-Evil: 1',
  ]);
});
