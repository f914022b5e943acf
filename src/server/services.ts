import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Config, DatabaseConfig } from './config.js';
import { migrateToLatest } from './db/migrate.js';
import { type OpenOptions, openDatabase } from './db/open.js';
import type { AppDeps } from './deps.js';
import { createMailer } from './mail/transport.js';
import { countingMailer, createMetrics } from './ops/metrics.js';
import { defaultWebRoot } from './paths.js';
import { makePrivateFolder } from './private-files.js';
import { createPushSender } from './push/sender.js';
import { loadSecretKey } from './secret-key.js';

export interface ServiceOptions {
  clock: Clock;
  /** Where the outbox mailer (no SMTP_URL) names the mails it writes. */
  log: Logger;
  /** The built web app; tests and the bench point it at a missing folder to get the placeholder page. */
  webRoot?: string;
}

export interface Services {
  deps: AppDeps;
  /** Migrations this start applied (the CLI's `migrate` reports them). */
  applied: string[];
  /** Closes the database; the mailer holds nothing open between mails. */
  close(): Promise<void>;
}

/**
 * The one wiring of the outside world that the server, the CLI, the tests and the bench all run: open and
 * migrate the database, load (or create) the secret key, pick the mailer from the configuration, make the push sender.
 */
export async function openServices(config: Config, options: ServiceOptions): Promise<Services> {
  makePrivateFolder(config.dataDir);
  const { database, applied } = await openMigrated(config.database, {
    onConnectionError: (error) =>
      options.log.warn({ err: error }, 'database connection lost; reconnecting when needed'),
  });
  try {
    const metrics = await createMetrics(config.metricsToken !== null, database.poolStats);
    const deps: AppDeps = {
      config,
      db: database.db,
      clock: options.clock,
      mailer: countingMailer(createMailer(config, options.log), metrics.mails),
      push: createPushSender(config, database.db, () => options.clock.now()),
      secretKey: loadSecretKey(config),
      webRoot: options.webRoot ?? defaultWebRoot,
      metrics,
    };
    return { deps, applied, close: () => database.close() };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/**
 * Migrates on a `patient` handle, without the request deadlines (see `migrateToLatest`), then serves requests from
 * it when the engine can shorten its deadlines in place (SQLite: one open and one WAL checkpoint less at start),
 * else from a new handle.
 */
async function openMigrated(config: DatabaseConfig, options: Pick<OpenOptions, 'onConnectionError'>) {
  const migrating = await openDatabase(config, { ...options, patient: true });
  let applied: string[];
  try {
    applied = await migrateToLatest(migrating.db, migrating.dialect);
  } catch (error) {
    await migrating.close();
    throw error;
  }
  if (migrating.endPatience()) return { database: migrating, applied };
  await migrating.close();
  return { database: await openDatabase(config, options), applied };
}
