import assert from 'node:assert/strict';
import net from 'node:net';
import type { ReceivedMail } from '../../support/smtp-receiver.js';
import { BASE_URL } from '../../support/app.js';

export interface ResetPair {
  link: string;
  selector: string;
  token: string;
}

/** The reset link of a received mail (the text part's, where `&` is not HTML-escaped), with its two values. */
export function resetPairFrom(mail: ReceivedMail): ResetPair {
  const base = BASE_URL.replace(/\./g, '\\.');
  const match = new RegExp(`${base}/\\?reset_selector=([^&\\s]+)&reset_token=([^&\\s]+)`).exec(mail.decoded);
  assert.ok(match, `no reset link in the mail:\n${mail.decoded}`);
  const selector = decodeURIComponent(match[1]!);
  const token = decodeURIComponent(match[2]!);
  assert.match(selector, /^[0-9a-f]{32}$/);
  assert.match(token, /^[0-9a-f]{64}$/);
  return { link: match[0], selector, token };
}

/** A local port nobody listens on: connecting to it is refused at once. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
