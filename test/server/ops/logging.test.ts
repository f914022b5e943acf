import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { createLogger, readableLine } from '../../../src/server/log.js';
import { projectRoot } from '../../../src/server/paths.js';
import { createTestApp, PASSWORD } from '../../support/app.js';
import { createTestDatabase } from '../../support/database.js';
import { memoryLogger } from '../../support/memory-log.js';
import { freePort } from '../../support/server-process.js';
import { resetPairFrom } from '../reset/support.js';

test('logging in, registering and resetting with SMTP leaves no password, cookie value or token in the log', async (t) => {
  const memory = memoryLogger();
  const steady = await createTestApp({ LOG_LEVEL: 'trace' }, { log: memory.log });
  t.after(() => steady.close());

  const secrets: string[] = [PASSWORD];
  const token = await steady.inviteToken();
  secrets.push(token);
  const anna = steady.client();
  const registered = await anna.post('/api/register', {
    email: 'anna@example.com',
    password: PASSWORD,
    token,
    name: 'Anna',
  });
  assert.equal(registered.status, 200);
  await anna.post('/api/logout');
  const loggedIn = await anna.post('/api/login', { email: 'anna@example.com', password: PASSWORD });
  assert.equal(loggedIn.status, 200);
  assert.equal((await anna.get('/api/me')).status, 200);
  assert.equal(
    (await steady.client().post('/api/login', { email: 'anna@example.com', password: 'wrong password 1' })).status,
    401,
  );
  secrets.push('wrong password 1');

  assert.equal((await steady.client().post('/api/reset-request', { email: 'anna@example.com' })).status, 200);
  const pair = resetPairFrom(await steady.smtp.nextMail());
  const newPassword = 'a brand new password';
  assert.equal((await steady.client().post('/api/reset-password', { ...pair, password: newPassword })).status, 200);
  secrets.push(pair.token, pair.selector, newPassword);

  for (const response of [registered, loggedIn]) {
    for (const line of response.setCookies) secrets.push(line.split(';')[0]!.split('=').slice(1).join('='));
  }
  const log = memory.text();
  assert.ok(
    memory.lines().some((line) => line.msg === 'request completed'),
    'the requests were logged',
  );
  for (const secret of secrets.filter((value) => value.length >= 8)) {
    assert.equal(log.includes(secret), false, `the log contains a secret: ${secret}`);
  }
  assert.doesNotMatch(log, /steady_session|steady_remember|"cookie"|"authorization"/i);
});

test("every answer carries x-request-id; a proxy's plain id is kept, anything else replaced; log lines carry it", async (t) => {
  const memory = memoryLogger();
  const steady = await createTestApp({}, { log: memory.log });
  t.after(() => steady.close());

  const own = await steady.client().get('/api/me');
  assert.match(String(own.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  const kept = await steady.client().get('/api/me', { 'x-request-id': 'proxy-4711.a' });
  assert.equal(kept.headers['x-request-id'], 'proxy-4711.a');
  const forged = await steady.client().get('/api/me', { 'x-request-id': 'x\n{"msg":"forged"}' });
  assert.match(String(forged.headers['x-request-id']), /^[0-9a-f-]{36}$/);

  const ofKept = memory
    .lines()
    .filter((line) => line.reqId === 'proxy-4711.a')
    .map((line) => line.msg);
  assert.deepEqual(ofKept, ['incoming request', 'request completed']);
  assert.equal(memory.text().includes('forged'), false);
});

test('on a terminal: readable lines, and the first-start invite link set apart on a line of its own', () => {
  const written: string[] = [];
  const log = createLogger({ level: 'info', readable: true, write: (text) => void written.push(text) });
  log.info({ reqId: 'r1', res: { statusCode: 200 } }, 'request completed');
  const url = 'http://localhost:3000/?invite=abc';
  log.warn({ inviteUrl: url, validUntil: '2026-12-01T00:00:00.000Z', reused: false }, `No users yet ... ${url}`);

  assert.match(written[0]!, /^\d\d:\d\d:\d\d INFO  request completed {2}reqId=r1 res=\{"statusCode":200\}\n$/);
  const block = written[1]!.split('\n');
  assert.ok(block.includes(`    ${url}`), written[1]);
  assert.equal(block[0], '', 'a blank line before the block');
  assert.match(block[1]!, /^=+$/);
  assert.equal(readableLine('not json\n'), 'not json\n');
});

test(
  'the real server on a terminal (script(1) gives it one): readable lines, the invite link set apart, no JSON',
  { timeout: 60_000 },
  async (t) => {
    const database = await createTestDatabase();
    t.after(() => database.drop());
    const port = await freePort();
    const child = spawn(
      'script',
      ['-qfec', `${JSON.stringify(process.execPath)} --import tsx src/server/main.ts`, '/dev/null'],
      {
        cwd: projectRoot,
        env: {
          PATH: process.env.PATH ?? '',
          TERM: 'dumb',
          DATABASE_URL: database.url,
          DATA_DIR: database.dataDir,
          PORT: String(port),
          LOG_LEVEL: 'info',
        },
        detached: true,
      },
    );
    const exited = new Promise((resolve) => child.on('close', resolve));
    t.after(async () => {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no invite block within 30 s:\n${output}`)), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8').replace(/\r/g, '');
        if (/\n=+\n\n/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const lines = output.split('\n');
    assert.ok(
      lines.some((line) =>
        new RegExp(`^\\d\\d:\\d\\d:\\d\\d INFO  Steady is running at http://localhost:${port} `).test(line),
      ),
      output,
    );
    assert.ok(
      lines.some((line) => new RegExp(`^ {4}http://localhost:${port}/\\?invite=[0-9a-f]{64}$`).test(line)),
      output,
    );
    assert.equal(
      lines.some((line) => line.startsWith('{')),
      false,
      'no JSON lines on a terminal',
    );
  },
);
