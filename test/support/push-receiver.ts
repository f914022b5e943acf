import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
// http_ece is what web-push encrypts with; the receiver decrypts with it as a browser would (RFC 8291, aes128gcm).
import ece from 'http_ece';

export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The decrypted payload. */
  text: string;
}

export interface PushReceiver {
  /** The origin to give the app as PUSH_TEST_ORIGIN. */
  origin: string;
  pushes: ReceivedPush[];
  /** A browser's subscription at `path` (its own key pair and auth secret), as PushSubscription.toJSON() gives it. */
  subscription(path: string): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** Answers every push to `path` with `status` (e.g. 410: the subscription is gone). */
  answer(path: string, status: number): void;
  close(): Promise<void>;
}

/** A local push service: stores the subscriptions' private keys and decrypts what arrives, like a browser would. */
export async function startPushReceiver(): Promise<PushReceiver> {
  const keys = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  const statuses = new Map<string, number>();
  const pushes: ReceivedPush[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const status = statuses.get(path) ?? 201;
      const key = keys.get(path);
      if (status === 201 && key) {
        const text = ece
          .decrypt(Buffer.concat(chunks), {
            version: 'aes128gcm',
            privateKey: key.ecdh,
            authSecret: key.auth.toString('base64url'),
          })
          .toString('utf8');
        pushes.push({ path, headers: request.headers, text });
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pushes,
    subscription(path) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      keys.set(path, { ecdh, auth });
      return {
        endpoint: `${origin}${path}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    answer(path, status) {
      statuses.set(path, status);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
