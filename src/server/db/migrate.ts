import { type Kysely, type Migration, type MigrationResult, Migrator, sql } from 'kysely';
import type { Logger } from 'pino';
import { type DialectName, isDatabaseUnavailable } from './dialect.js';
import { appliedMigrationNames, beginImmediateAtOnce, endSqliteTransaction } from './migration-store.js';
import { migrations } from './migrations/index.js';
import type { DatabaseHandle } from './open.js';

/** pg_advisory_lock key of Steady's migrations (any constant; "steady" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x737465616479;

/**
 * How long a start waits for the migration lock before it logs that it waits: a start that prints nothing and does
 * not answer /healthz looks hung, while another process's migration usually takes well under a second.
 */
export const LOCK_WAIT_NOTICE_MS = 1_000;

/** How often a SQLite start looks again whether the other process's write lock is free. */
const SQLITE_LOCK_POLL_MS = 100;

/**
 * Where a start says that it waits for another process's migration, and when it goes on (decision 0206): the
 * server's log (`noticeToLog`), the CLI's stderr. The words are this module's, for every process and engine.
 */
export type MigrationWaitNotice = (message: string, details?: { waitedMs: number }) => void;

export const noticeToLog =
  (log: Logger): MigrationWaitNotice =>
  (message, details) =>
    log.info(details ?? {}, message);

/**
 * Migrates `handle`'s database when a migration is pending, without the request deadlines (`patiently`): one may run
 * long, or wait for another process's (decision 0051). Whether one is pending is asked under the request deadlines
 * first, so that a PostgreSQL that accepts the connection and then goes silent fails every start and every CLI
 * command within the query deadline instead of holding it forever (decision 0172). Returns the migrations applied.
 */
export async function migrateIfPending(handle: DatabaseHandle, notice?: MigrationWaitNotice): Promise<string[]> {
  if (!(await migrationsPending(handle.db))) return [];
  return handle.patiently((db) => migrateToLatest(db, handle.dialect, notice));
}

/**
 * Whether `migrateToLatest` has anything to do: a migration of this version not applied yet, or one applied that this
 * version does not know (a newer version's), which `migrateToLatest` refuses as Kysely's "corrupted migrations".
 */
async function migrationsPending(db: Kysely<any>): Promise<boolean> {
  const applied = new Set(await appliedMigrationNames(db));
  const known = Object.keys(migrations);
  return applied.size !== known.length || known.some((name) => !applied.has(name));
}

/**
 * Applies every pending migration, all or none: the run is one transaction, and the first failure rolls it back
 * (`failedRun` says so). Processes starting at once run it one after the other, and the later ones find nothing to
 * do: on PostgreSQL the whole run, including creating Kysely's bookkeeping tables, holds an advisory lock (decision
 * 0051); on SQLite it holds the write lock (`inSqliteWriteTransaction`, decision 0211). Run it on a `patient` database
 * handle: waiting for the lock takes as long as the other's migrations. With `notice`, a wait for the lock beyond
 * LOCK_WAIT_NOTICE_MS is told, and so is its end (decision 0206).
 */
export async function migrateToLatest(
  db: Kysely<any>,
  dialect: DialectName,
  notice?: MigrationWaitNotice,
): Promise<string[]> {
  if (dialect === 'sqlite') {
    return inSqliteWriteTransaction(db, notice, (connection) => applyMigrations(connection, dialect));
  }
  return db.connection().execute(async (connection) => {
    await saidWhenLong(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection), notice);
    try {
      return await applyMigrations(connection, dialect);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
    }
  });
}

/**
 * Runs `work` in one SQLite write transaction, begun before it reads anything. Kysely's SQLite adapter takes no lock
 * and runs migrations without a transaction, so two processes could each find a migration pending and both apply it
 * (a data migration twice, or one failing on "already exists"); SQLite's DDL is transactional, so the whole run,
 * Kysely's bookkeeping included, can be one transaction instead: the other process waits for the write lock and then
 * finds the run done, and a failure leaves the file as it was. Kysely's one connection is held meanwhile, so nothing
 * else of this process runs inside the transaction (decision 0211).
 */
async function inSqliteWriteTransaction<T>(
  db: Kysely<any>,
  notice: MigrationWaitNotice | undefined,
  work: (connection: Kysely<any>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    await saidWhenLong(sqliteWriteLockTaken(connection), notice);
    try {
      const result = await work(connection);
      await endSqliteTransaction(connection, 'commit');
      return result;
    } catch (error) {
      // SQLite ends the transaction itself after some errors (a full disk, an I/O error); the rollback then finds
      // none, and the error to tell is still the first one.
      await endSqliteTransaction(connection, 'rollback').catch(() => {});
      throw error;
    }
  });
}

/** Tells `notice` when `locked` takes longer than LOCK_WAIT_NOTICE_MS, and then when it is done. */
async function saidWhenLong<T>(locked: Promise<T>, notice: MigrationWaitNotice | undefined): Promise<T> {
  const started = Date.now();
  let said = false;
  const timer = setTimeout(() => {
    said = true;
    notice?.("waiting for another process's migration (lock held)");
  }, LOCK_WAIT_NOTICE_MS);
  try {
    const result = await locked;
    if (said) notice?.("another process's migration is done; going on", { waitedMs: Date.now() - started });
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Begins the write transaction once no other process holds SQLite's write lock. It asks without a busy wait, every
 * SQLITE_LOCK_POLL_MS: better-sqlite3's busy wait is synchronous and would hold up the timer that tells of the wait.
 * Gives up with the SQLITE_BUSY error after the connection's own busy timeout, as a write would.
 */
async function sqliteWriteLockTaken(db: Kysely<any>): Promise<void> {
  const started = Date.now();
  for (;;) {
    const attempt = await beginImmediateAtOnce(db);
    if (attempt.taken) return;
    if (Date.now() - started >= attempt.busyTimeoutMs) throw attempt.error;
    await new Promise((resolve) => setTimeout(resolve, SQLITE_LOCK_POLL_MS));
  }
}

async function applyMigrations(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: {
      // Migrations are listed in code (not read from a folder) so they work from `src/` and `dist/` alike.
      async getMigrations() {
        const bound: Record<string, Migration> = {};
        for (const [name, migration] of Object.entries(migrations)) {
          bound[name] = { up: (trx) => migration.up(trx, dialect) };
        }
        return bound;
      },
    },
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw failedRun(error, results);
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The error of a run in which a migration failed, naming it and what is still pending: the operator should know that
 * the database is at its version from before (the run was rolled back) and nothing was half applied. Kysely's own
 * errors (no migration failed: a newer version's migration applied, say) and a database gone away are told as
 * they are; the latter's words are the start's (decision 0172).
 */
function failedRun(error: unknown, results: readonly MigrationResult[]): Error {
  const cause = error instanceof Error ? error : new Error(String(error));
  const failed = results.find((r) => r.status === 'Error');
  if (!failed || isDatabaseUnavailable(cause)) return cause;
  const pending = results.map((r) => r.migrationName).join(', ');
  return new Error(
    `migration ${failed.migrationName} failed: ${cause.message}. Rolled back: no migration of this run was applied (still pending: ${pending})`,
    { cause },
  );
}
