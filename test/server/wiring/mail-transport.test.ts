import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../../src/server/config.js';
import { createMailer, smtpMailer } from '../../../src/server/mail/transport.js';

const MESSAGE = {
  to: 'anna@example.com',
  subject: 'Reset your Steady password',
  text: 'Open this link within an hour: http://steady.test/?reset=abc123\n\nIgnore this mail if you did not ask.',
  html: '<p>unused by the outbox</p>',
};

/** A TCP server that accepts connections and never says a word: an SMTP server that hangs before its greeting. */
async function silentServer(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

test('a mail server that accepts the connection and never answers: send and verify reject at the deadline', async (t) => {
  const url = await silentServer(t);
  const mailer = smtpMailer(url, 'Steady <steady@steady.test>', { timeoutMs: 300 });
  const deadline = { message: 'mail server did not answer within 300 ms' };
  await assert.rejects(mailer.send(MESSAGE), deadline);
  await assert.rejects(mailer.verify(), deadline);
});

test('without SMTP_URL a mail becomes a 0600 file in <dataDir>/outbox, and the log names the file but not the link (issue 13 point 7)', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-outbox-'));
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ DATA_DIR: dataDir, BASE_URL: 'http://steady.test' });
  assert.equal(config.smtpUrl, null);
  const logged: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });

  await createMailer(config, pino({ level: 'info' }, sink)).send(MESSAGE);

  const outbox = path.join(dataDir, 'outbox');
  const files = fs.readdirSync(outbox);
  assert.equal(files.length, 1);
  const file = path.join(outbox, files[0]!);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(fs.readFileSync(file, 'utf8'), `To: ${MESSAGE.to}\nSubject: ${MESSAGE.subject}\n\n${MESSAGE.text}\n`);

  assert.equal(logged.length, 1);
  const line = JSON.parse(logged[0]!) as Record<string, unknown>;
  assert.equal(line.level, 30);
  assert.equal(line.to, MESSAGE.to);
  assert.equal(line.file, file);
  assert.ok(!logged[0]!.includes('abc123'), 'the link is not logged');
  assert.equal(line.msg, `mail written to the outbox (no SMTP_URL): ${MESSAGE.subject}`);
});
