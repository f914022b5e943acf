import assert from 'node:assert/strict';
import net from 'node:net';
import { test, type TestContext } from 'node:test';
import Fastify from 'fastify';
import { pino } from 'pino';
import { openDatabase } from '../../../src/server/db/open.js';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { gracefulShutdown } from '../../../src/server/shutdown.js';
import { createTestDatabase } from '../../support/database.js';
import { startPartialPost } from '../../support/partial-post.js';
import { freePort, startServerProcess } from '../../support/server-process.js';

/** True once connections are refused (Fastify stops listening a few ticks after the signal's log line). */
async function refusesConnections(port: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await connectionRefused(port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** A server process on a fresh database with one registered user; `headers` carry that user's session. */
async function startServerWithUser(t: TestContext) {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServerProcess({
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    BASE_URL: baseUrl,
    LOG_LEVEL: 'info',
  });
  t.after(() => server.kill());

  const { inviteUrl } = await server.waitForLine((line) => typeof line.inviteUrl === 'string');
  const token = new URL(inviteUrl).searchParams.get('invite');
  const registered = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { origin: baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'anna@example.com', password: 'correct horse battery', token }),
  });
  assert.equal(registered.status, 200, await registered.text());
  const cookie = registered.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return { database, server, port, baseUrl, headers: { origin: baseUrl, cookie } };
}

test(
  'SIGTERM with eight writers in flight: no new connections, all eight answered and stored, exit 0',
  { timeout: 90_000 },
  async (t) => {
    const { database, server, port, headers } = await startServerWithUser(t);
    const writers = Array.from({ length: 8 }, (_, i) =>
      startPartialPost(port, '/api/goals', headers, JSON.stringify({ name: `Goal ${i}`, unit: 'reps', daily: 10 + i })),
    );
    // All eight reached the server (their routes ran the session check) before the signal.
    await server.waitForLine(
      () =>
        server.lines().filter((line) => line.msg === 'incoming request' && line.req?.url === '/api/goals').length === 8,
    );
    server.child.kill('SIGTERM');
    await server.waitForLine((line) => typeof line.msg === 'string' && line.msg.startsWith('shutting down'));
    assert.equal(await refusesConnections(port), true, 'a new connection after SIGTERM is refused');

    for (const writer of writers) writer.finish();
    const answers = await Promise.all(writers.map((writer) => writer.response));
    const ids = answers.map(({ status, body }) => {
      assert.equal(status, 200, body);
      return JSON.parse(body).id as string;
    });
    assert.equal(await server.exited, 0);
    assert.ok(server.lines().some((line) => line.msg === 'stopped'));

    // Every acknowledged write is in the database.
    const handle = await openDatabase(parseDatabaseUrl(database.url));
    try {
      const stored = await handle.db.selectFrom('goals').select(['id', 'name']).orderBy('id').execute();
      assert.deepEqual(stored.map((goal) => String(goal.id)).sort(), [...ids].sort());
      assert.equal(stored.length, 8);
    } finally {
      await handle.close();
    }
  },
);

test('a request still unfinished after the drain time has its connection cut, and the shutdown completes', async (t) => {
  const app = Fastify({ logger: false });
  app.post('/slow', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => app.close());
  const port = (app.server.address() as net.AddressInfo).port;

  // The client never sends the rest of its body.
  const stuck = startPartialPost(port, '/slow', {}, JSON.stringify({ padding: 'x'.repeat(100) }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  let closed = false;
  let exitCode: number | undefined;
  const shutdown = gracefulShutdown({
    app,
    closeServices: async () => {
      closed = true;
    },
    log: pino({ level: 'silent' }),
    drainTimeoutMs: 200,
    exit: (code) => (exitCode = code),
  });
  await shutdown('SIGTERM');
  await assert.rejects(stuck.response, /socket hang up|ECONNRESET/);
  assert.equal(closed, true);
  assert.equal(exitCode, 0);
});

test(
  'a request arriving on a kept-alive connection after SIGTERM gets 503 shutting_down with Retry-After',
  { timeout: 90_000 },
  async (t) => {
    const { server, port, baseUrl, headers } = await startServerWithUser(t);
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    const request = (body: string, headersToo: string) =>
      `POST /api/goals HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${baseUrl}\r\nCookie: ${headers.cookie}\r\n` +
      `Connection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${headersToo}`;
    const first = JSON.stringify({ name: 'In flight', unit: 'reps', daily: 10 });
    const second = JSON.stringify({ name: 'After the signal', unit: 'reps', daily: 10 });
    // The first request is in flight (half its body sent), so the connection is busy when the signal comes.
    socket.write(request(first, first.slice(0, 10)));
    await server.waitForLine((line) => line.msg === 'incoming request' && line.req?.url === '/api/goals');
    server.child.kill('SIGTERM');
    await server.waitForLine((line) => typeof line.msg === 'string' && line.msg.startsWith('shutting down'));
    // The rest of the first body and a second request on the same connection, as a keep-alive client pool sends them.
    socket.write(first.slice(10) + request(second, second));
    await ended;

    const answers = received.split(/(?=HTTP\/1\.1 \d{3} )/).map((text) => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      return { status: Number(head.slice(9, 12)), head: head.toLowerCase(), body };
    });
    assert.equal(answers.length, 2, received);
    assert.equal(answers[0]!.status, 200, answers[0]!.body);
    assert.equal(answers[1]!.status, 503, answers[1]!.body);
    assert.deepEqual(JSON.parse(answers[1]!.body), {
      error: 'The server is shutting down, please try again shortly',
      code: 'shutting_down',
    });
    assert.match(answers[1]!.head, /\r\nretry-after: 5\r\n/);
    assert.match(answers[1]!.head, /\r\nconnection: close\r\n/);
    assert.equal(await server.exited, 0);
  },
);
