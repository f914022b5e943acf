import path from 'node:path';
import type { Logger } from 'pino';
import { countUsers } from './accounts/store.js';
import { lastBackupDoneAt } from './backup/store.js';
import type { Clock } from './clock.js';
import type { Config, DatabaseConfig } from './config.js';
import { migrateIfPending, type MigrationWaitNotice, noticeToLog } from './db/migrate.js';
import { type OpenOptions, openDatabase } from './db/open.js';
import { unreachableDatabase } from './db/unreachable.js';
import type { AppDeps } from './deps.js';
import { createMailer } from './mail/transport.js';
import { countingMailer, createMetrics } from './ops/metrics.js';
import { defaultWebRoot } from './paths.js';
import { makeConfiguredFolder } from './private-files.js';
import { createPushSender } from './push/sender.js';
import { loadSecretKey } from './secret-key.js';

export interface ServiceOptions {
  clock: Clock;
  /** Where the outbox mailer (no SMTP_URL) names the mails it writes. */
  log: Logger;
  /** The built web app; tests and the bench point it at a missing folder to get the placeholder page. */
  webRoot?: string;
  /** Where a wait for another process's migration is told (decision 0206); by default `log`. */
  migrationNotice?: MigrationWaitNotice;
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
export function openServices(config: Config, options: ServiceOptions): Promise<Services> {
  // What the server's start and every `steady` command say when the database cannot be reached: pg's words alone
  // ("Query read timeout") name neither the database nor the setting to check.
  return wireServices(config, options).catch((error: unknown) => {
    throw unreachableDatabase(config.database, 'DATABASE_URL', error);
  });
}

async function wireServices(config: Config, options: ServiceOptions): Promise<Services> {
  makeConfiguredFolder('DATA_DIR', config.dataDir, dataDirHint(config));
  const { database, applied } = await openMigrated(
    config.database,
    {
      onConnectionError: (error) =>
        options.log.warn({ err: error }, 'database connection lost; reconnecting when needed'),
    },
    options.migrationNotice ?? noticeToLog(options.log),
  );
  try {
    let newKeyFile: string | null = null;
    const secretKey = loadSecretKey(config, (file) => (newKeyFile = file));
    // A restored or moved database started beside a new key: the operator should know before an invite is lost.
    if (newKeyFile !== null && (await countUsers(database.db)) > 0) {
      options.log.warn(
        { file: newKeyFile },
        'a new secret.key was made for a database that has accounts: links of invites made before cannot be shown; if the database was moved or restored, set DATA_DIR to the folder of its old secret.key (or SECRET_KEY)',
      );
    }
    const metrics = await createMetrics(config.metricsToken !== null, {
      poolStats: database.poolStats,
      ...(config.backupDir !== null && { lastBackupAt: () => lastBackupDoneAt(database.db) }),
    });
    const deps: AppDeps = {
      config,
      db: database.db,
      clock: options.clock,
      mailer: countingMailer(createMailer(config, options.log), metrics.mails),
      push: createPushSender(config, database.db, () => options.clock.now()),
      secretKey,
      webRoot: options.webRoot ?? defaultWebRoot,
      metrics,
    };
    return { deps, applied, close: () => database.close() };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Said when DATA_DIR was not given: then it is the SQLite file's folder, which the operator may not expect. */
function dataDirHint(config: Config): string {
  const defaulted = config.database.kind === 'sqlite' && path.dirname(config.database.file) === config.dataDir;
  return defaulted ? ' (by default the folder of the SQLite file; set DATA_DIR)' : '';
}

/**
 * Opens the database as requests use it and migrates it when a migration is pending (`migrateIfPending`: asked under
 * the request deadlines, so a PostgreSQL gone silent fails the start instead of holding it; decision 0172).
 */
async function openMigrated(
  config: DatabaseConfig,
  options: Pick<OpenOptions, 'onConnectionError'>,
  notice: MigrationWaitNotice,
) {
  const database = await openDatabase(config, options);
  try {
    return { database, applied: await migrateIfPending(database, notice) };
  } catch (error) {
    await database.close();
    throw error;
  }
}
