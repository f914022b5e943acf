import { type Kysely, sql } from 'kysely';
import { directStatementsFor } from './direct-statements.js';

/*
 * SQLite: the writes of requests arriving together share one transaction and its COMMIT (group commit, decision
 * 0208). A commit writes the transaction's pages to the WAL, which cost a logged amount about half of its server CPU;
 * one commit for the logs of one turn of the event loop more than doubled the floor's logs per second. Each write
 * runs in a savepoint of its own, so a refused request undoes only its own writes, and none is answered before the
 * COMMIT: a request that is told its write is done finds it stored, as with a transaction of its own. When the
 * transaction fails as a whole (the COMMIT, or a savepoint SQLite had already rolled back with it), every write of it
 * fails with that error and nothing of it is stored.
 *
 * The writes of one shared transaction run one after the other on the one connection, as they would anyway: SQLite
 * has one writer, and better-sqlite3 one connection per process. PostgreSQL keeps a transaction per request, each on
 * a connection of its own.
 */

/** A write that must be atomic: its statements on `trx`, its answer once they are committed. */
export type WriteWork<T> = (trx: Kysely<any>) => Promise<T>;

interface Waiting {
  work: WriteWork<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { value: unknown } | { error: unknown };

class SharedCommits {
  private waiting: Waiting[] = [];
  private running = false;

  constructor(private readonly db: Kysely<any>) {}

  run<T>(work: WriteWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      // The first write of a turn waits for the turn's others; one arriving while a transaction runs waits for it.
      if (!this.running && this.waiting.length === 1) setImmediate(() => void this.runWaiting());
    });
  }

  private async runWaiting(): Promise<void> {
    this.running = true;
    const writes = this.waiting;
    this.waiting = [];
    // What ended the transaction, rather than the failed ROLLBACK that Kysely then reports.
    let cause: unknown;
    try {
      const outcomes = await this.db.transaction().execute(async (trx) => {
        const done: Outcome[] = [];
        for (const { work } of writes) {
          try {
            done.push(await inSavepoint(trx, work));
          } catch (error) {
            cause = error;
            throw error;
          }
        }
        return done;
      });
      outcomes.forEach((outcome, i) =>
        'error' in outcome ? writes[i]!.reject(outcome.error) : writes[i]!.resolve(outcome.value),
      );
    } catch (error) {
      for (const write of writes) write.reject(cause ?? error);
    } finally {
      this.running = false;
      if (this.waiting.length > 0) setImmediate(() => void this.runWaiting());
    }
  }
}

/**
 * `work` in a savepoint: its value, or its error with its writes undone. When the savepoint cannot be rolled back,
 * SQLite has ended the whole transaction (a full disk, say): the error then fails the shared transaction.
 */
async function inSavepoint(trx: Kysely<any>, work: WriteWork<unknown>): Promise<Outcome> {
  await runStatement(trx, 'savepoint steady_write');
  try {
    const value = await work(trx);
    await runStatement(trx, 'release steady_write');
    return { value };
  } catch (error) {
    try {
      await runStatement(trx, 'rollback to steady_write');
      await runStatement(trx, 'release steady_write');
    } catch {
      throw error;
    }
    return { error };
  }
}

/**
 * A statement of the savepoints, run on SQLite's connection directly: two per write, through Kysely they cost a log
 * 6-7 µs in a loop of their own, directly under 2 µs (decision 0217).
 */
async function runStatement(trx: Kysely<any>, statement: string): Promise<void> {
  const direct = directStatementsFor(trx);
  if (direct) direct.run(statement, []);
  else await sql.raw(statement).execute(trx);
}

const byAdapter = new WeakMap<object, SharedCommits>();

/** Lets the writes on `db` share transactions (SQLite's own database, never a transaction or PostgreSQL). */
export function allowSharedCommits(db: Kysely<any>): void {
  byAdapter.set(db.getExecutor().adapter, new SharedCommits(db));
}

/**
 * Runs `work` atomically and resolves once it is committed: on a database that allows it (SQLite), in a transaction
 * shared with the writes of other requests arriving together; on PostgreSQL in a transaction of its own; on a
 * transaction, as part of it.
 */
export function inWriteTransaction<DB, T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  const shared = byAdapter.get(db.getExecutor().adapter);
  return shared ? shared.run(work as WriteWork<T>) : db.transaction().execute(work);
}
