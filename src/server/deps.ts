import type { Kysely } from 'kysely';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/schema.js';
import type { Mailer } from './mail/mailer.js';
import type { Metrics } from './ops/metrics.js';
import type { PushSender } from './push/sender.js';

/** Everything `buildApp` needs from outside; `openServices` (services.ts) wires them for every process. */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  mailer: Mailer;
  /** Web Push for reminders; one per process, so its VAPID keys are read once. */
  push: PushSender;
  /** 32-byte key for encrypting pending invite links (kept outside the database). */
  secretKey: Buffer;
  /** Absolute path of the built web app (`dist/web`); a placeholder page is served while it is missing. */
  webRoot: string;
  /** Prometheus counters the app feeds; served at /metrics when METRICS_TOKEN is set. */
  metrics: Metrics;
}
