import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { SLOW_CLIENT_TIMEOUT_MS } from '../../../src/server/app.js';
import { createTestApp } from '../../support/app.js';

/** Opens a socket, sends `text`, and resolves with what the server answered once it closed the connection. */
function sendAndWaitForClose(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

describe('slow clients (issue 13 point 1)', () => {
  it('the server main.ts listens with gives a request 30 s', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    assert.equal(SLOW_CLIENT_TIMEOUT_MS, 30_000);
    // The Node server Fastify made (the one `listen` starts): whole request, and idle socket.
    assert.equal(steady.app.server.requestTimeout, SLOW_CLIENT_TIMEOUT_MS);
    assert.equal(steady.app.server.timeout, SLOW_CLIENT_TIMEOUT_MS);
  });

  it('a socket that sends half a body and then nothing is closed after the timeout', { timeout: 20_000 }, async (t) => {
    const steady = await createTestApp({}, { build: { slowClientTimeoutMs: 500 } });
    t.after(() => steady.close());
    await steady.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = steady.app.server.address() as net.AddressInfo;

    const body = JSON.stringify({ email: 'anna@example.com', password: 'correct horse battery' });
    const half = body.slice(0, body.length / 2);
    const request =
      `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${half}`;
    const answered = await sendAndWaitForClose(port, request);
    // Closed without an answer, or answered 408: either way the socket is free again.
    assert.ok(answered === '' || answered.startsWith('HTTP/1.1 408'), answered);

    // A socket that only connects and never sends a request line is closed as well.
    assert.equal(await sendAndWaitForClose(port, ''), '');
  });
});
