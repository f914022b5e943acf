import http from 'node:http';
import https from 'node:https';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { checkPushEndpoint, publicOnlyLookup } from './endpoint.js';
import type { PushSubscriptionRow } from './store.js';
import { sharedVapidKeys, type VapidKeys } from './vapid-store.js';

/** How long a push service may take to answer one message. */
const PUSH_TIMEOUT_MS = 10_000;
/** A reminder is about today: a push service may drop it after 12 hours undelivered. */
const PUSH_TTL_SECONDS = 12 * 60 * 60;

/** What a push service answered: delivered, gone for good (404/410: forget the subscription), or failed. */
export type PushResult = 'sent' | 'gone' | 'failed';

export interface PushSender {
  publicKey(): Promise<string>;
  send(subscription: PushSubscriptionRow, payload: string): Promise<PushResult>;
}

type WebPush = typeof import('web-push');

/**
 * Web Push with the `web-push` package for VAPID and the aes128gcm encryption; the request itself is ours, sent
 * through a socket whose lookup refuses non-public addresses (docs/decisions/0103-push-endpoint-ssrf.md).
 */
export function createPushSender(config: Config, db: Kysely<Database>, now: () => number): PushSender {
  let webPush: Promise<WebPush> | undefined;
  // Loaded with the first use, like nodemailer: most starts never push.
  const load = () => (webPush ??= import('web-push').then((module) => (module.default ?? module) as WebPush));
  let keys: Promise<VapidKeys> | undefined;
  const vapidKeys = () =>
    (keys ??= config.vapid
      ? Promise.resolve(config.vapid)
      : load().then((lib) => sharedVapidKeys(db, lib.generateVAPIDKeys(), now()))).catch((error: unknown) => {
      keys = undefined;
      throw error;
    });

  return {
    async publicKey() {
      return (await vapidKeys()).publicKey;
    },
    async send(subscription, payload) {
      const url = await checkPushEndpoint(subscription.endpoint, config.pushTestOrigin);
      const lib = await load();
      const vapid = await vapidKeys();
      const details = lib.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        {
          TTL: PUSH_TTL_SECONDS,
          contentEncoding: 'aes128gcm',
          vapidDetails: { subject: config.vapidSubject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        },
      );
      const status = await post(url, details.headers as Record<string, string | number>, details.body as Buffer, {
        exempt: url.origin === config.pushTestOrigin,
      });
      if (status === 404 || status === 410) return 'gone';
      return status >= 200 && status < 300 ? 'sent' : 'failed';
    },
  };
}

function post(
  url: URL,
  headers: Record<string, string | number>,
  body: Buffer | null,
  { exempt }: { exempt: boolean },
): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      // The test origin (PUSH_TEST_ORIGIN) is a local service by definition; every other host is looked up through
      // the public-only lookup. IP literals were checked by checkPushEndpoint (no lookup happens for them).
      { method: 'POST', headers, timeout: PUSH_TIMEOUT_MS, ...(exempt ? {} : { lookup: publicOnlyLookup }) },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`push service did not answer within ${PUSH_TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(body ?? undefined);
  });
}
