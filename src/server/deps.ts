import type { Kysely } from 'kysely';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/schema.js';
import type { DialectName } from './db/dialect.js';
import type { Mailer } from './mail/mailer.js';

/** Everything `buildApp` needs from outside; `main.ts` wires the real ones, tests their own. */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  dialect: DialectName;
  clock: Clock;
  mailer: Mailer;
  /** 32-byte key for encrypting pending invite links (kept outside the database). */
  secretKey: Buffer;
  /** Absolute path of the built web app (`dist/web`); a placeholder page is served while it is missing. */
  webRoot: string;
}
