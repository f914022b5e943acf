import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import type { Logger } from 'pino';
import type { DialectName } from './dialect.js';
import { appliedMigrationNames, takeSqliteWriteLockAtOnce } from './migration-store.js';
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
 * Applies every pending migration; throws (and applies nothing further) on the first failure. On PostgreSQL the
 * whole run, including creating Kysely's bookkeeping tables, holds an advisory lock, so processes starting at once
 * run it one after the other and the later ones find nothing to do (decision 0051). SQLite's write lock does the
 * same there. Run it on a `patient` database handle: waiting for the lock takes as long as the other's migrations.
 * With `notice`, a wait for the lock beyond LOCK_WAIT_NOTICE_MS is told, and so is its end (decision 0206).
 */
export async function migrateToLatest(
  db: Kysely<any>,
  dialect: DialectName,
  notice?: MigrationWaitNotice,
): Promise<string[]> {
  if (dialect === 'sqlite') {
    await saidWhenLong(sqliteWriteLockFree(db), notice);
    return applyMigrations(db, dialect);
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
 * Resolves once no other process holds SQLite's write lock, as the migrations' first write would find it. It asks
 * without a busy wait, every SQLITE_LOCK_POLL_MS: better-sqlite3's busy wait is synchronous and would hold up the
 * timer that tells of the wait. Gives up with the SQLITE_BUSY error after the connection's own busy timeout, as the
 * first write would. The lock may be taken again before the migrations write; they then wait as before, untold.
 */
async function sqliteWriteLockFree(db: Kysely<any>): Promise<void> {
  const started = Date.now();
  for (;;) {
    const attempt = await takeSqliteWriteLockAtOnce(db);
    if (attempt.free) return;
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
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
