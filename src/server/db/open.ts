import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  type LogEvent,
  PostgresDialect,
  SqliteDialect,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
import type pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { makePrivateFile, makePrivateFolder } from '../private-files.js';
import { isArrayRowsSql } from './array-rows.js';
import { allowDirectStatements } from './direct-statements.js';
import { allowSharedCommits } from './shared-commits-store.js';
import { type DialectName, PG_CONNECT_TIMEOUT_MESSAGE, reachedNoServer } from './dialect.js';
import type { Database } from './schema.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Connections of PostgreSQL's pool (for metrics); null on SQLite, which has its one connection. */
  poolStats(): PoolStats | null;
  /**
   * Runs `work` without the request deadlines, as a `patient` handle would (migrations). SQLite lengthens its busy
   * timeout on the open connection for the while; PostgreSQL's pool options cannot change, so `work` gets a pool of
   * its own, closed when it ends.
   */
  patiently<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * Deadlines that turn an unreachable database into a quick 503 database_unavailable instead of a request that
 * hangs, while a busy but healthy database (a burst of writes queued on one row lock) still gets to answer
 * (decision 0050).
 */
export const DATABASE_TIMEOUTS = {
  /**
   * Opening one PostgreSQL connection: an unreachable server fails within this, and so does every request waiting
   * for a connection at the time. Counted again from where the timer ran late, in a process too busy to run it in
   * time (decision 0183).
   */
  connectMs: 1_000,
  /** After a failed connection attempt, new requests fail at once for this long instead of each trying again. */
  failFastMs: 500,
  /** PostgreSQL cancels a statement (or a lock wait) that runs longer. */
  statementMs: 5_000,
  /** The client gives up on an answer that never comes (a connection that went silent). */
  queryMs: 6_000,
  /** SQLite waits this long for another process's write lock, then fails with SQLITE_BUSY. */
  sqliteBusyMs: 1_500,
  /** What a `patient` handle (migrations) waits for a connection or SQLite's lock. */
  patientMs: 30_000,
  /**
   * A PostgreSQL connection this long without a packet gets TCP keep-alive probes; Node sends ten, a second apart, so
   * a dead peer fails the connection 10 s later (without it: 2 h 11 min by Linux's defaults; decision 0184).
   */
  keepAliveIdleMs: 30_000,
};

export interface OpenOptions {
  /**
   * Told about errors of connections nobody is using right now (PostgreSQL restarted, network gone). Without a
   * listener such an error would end the process; the pool drops the connection and opens a new one when needed.
   */
  onConnectionError?: (error: Error) => void;
  /**
   * For migrations: no statement or query deadline and a long SQLite busy wait, since a migration may run long and
   * a second process waits for the first one's lock (decision 0051).
   */
  patient?: boolean;
  /**
   * For tests that count a code path's statements: told the SQL of each statement Kysely runs. On SQLite the
   * precompiled statements run on the connection directly (decision 0124) and are not seen; use
   * test/support/logged-database.ts there.
   */
  logStatements?: (sql: string) => void;
}

/** Kysely's `log` option for `logStatements`. */
function statementLog(options: OpenOptions): { log?: (event: LogEvent) => void } {
  const logStatements = options.logStatements;
  return logStatements ? { log: (event) => logStatements(event.query.sql) } : {};
}

/**
 * `pg` is loaded only when PostgreSQL is used: on SQLite, loading it would be a tenth of the server's start time
 * (issue 7). The import is cached, and the type parser is set on every call, which costs nothing.
 */
async function loadPg(): Promise<typeof pg> {
  const { default: loaded } = await import('pg');
  // PostgreSQL returns bigint (our millisecond timestamps) as strings; they fit a JS number exactly.
  loaded.types.setTypeParser(loaded.types.builtins.INT8, (value) => Number(value));
  return loaded;
}

export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (config.kind === 'postgres') {
    const pg = await loadPg();
    const pool = new pg.Pool({
      connectionString: config.url,
      max: config.poolSize,
      // No deadline for waiting on a busy pool (its connections are working: a burst of requests is healthy);
      // each new connection has a deadline of its own, which is what an unreachable server runs into.
      Client: clientWithConnectTimeout(pg, options.patient ? DATABASE_TIMEOUTS.patientMs : DATABASE_TIMEOUTS.connectMs),
      ...(!options.patient && {
        statement_timeout: DATABASE_TIMEOUTS.statementMs,
        query_timeout: DATABASE_TIMEOUTS.queryMs,
      }),
      // A peer gone silently (host down, network cut, no reset) is noticed by the operating system while a
      // connection waits for an answer with no deadline of ours (the patient handle's migrations, decision 0184).
      keepAlive: true,
      keepAliveInitialDelayMillis: DATABASE_TIMEOUTS.keepAliveIdleMs,
    });
    const onError = options.onConnectionError ?? (() => {});
    // Idle connections report here; pg-pool removes them itself.
    pool.on('error', onError);
    // A connection checked out between two queries of a transaction has no listener of pg-pool's: without this one
    // its error would be unhandled and end the process. The query that uses it next fails and releases it broken.
    pool.on('connect', (client) => client.on('error', onError));
    // Named statements are parsed and planned once per connection; migrations (patient) may change the tables
    // under a cached plan, so they go unnamed.
    const statementNames = options.patient ? null : new StatementNames();
    const checkout = outageAwareCheckout(pool, config.poolSize);
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: resilientPool(pool, checkout, statementNames) }),
      ...statementLog(options),
    });
    return {
      db,
      dialect: 'postgres',
      // Requests wait in the checkout's queue; pg-pool's own holds one only while a connection is handed on.
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: checkout.waiting() + pool.waitingCount,
      }),
      async patiently(work) {
        const patient = await openDatabase(config, { ...options, patient: true });
        try {
          return await work(patient.db);
        } finally {
          await patient.close();
        }
      },
      close: () => db.destroy(),
    };
  }
  makePrivateFolder(path.dirname(config.file));
  // SQLite gives the -wal and -shm files the mode of the database file, so making that one 0600 before opening
  // covers all three; files left by an older version are tightened here as well.
  makePrivateFile(config.file, { create: true });
  for (const suffix of ['-wal', '-shm']) makePrivateFile(`${config.file}${suffix}`);
  const sqlite = new SqliteDatabase(config.file);
  // WAL lets readers run beside the one writer; the busy timeout makes a second process wait, not fail at once.
  // It is short because better-sqlite3 waits synchronously, holding up every request (decision 0050).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const busyTimeout = (ms: number) => sqlite.pragma(`busy_timeout = ${ms}`);
  const ownBusyMs = options.patient ? DATABASE_TIMEOUTS.patientMs : DATABASE_TIMEOUTS.sqliteBusyMs;
  busyTimeout(ownBusyMs);
  const prepare = statementCache(sqlite);
  const kyselyDatabase: KyselySqliteDatabase = { close: () => sqlite.close(), prepare };
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: kyselyDatabase }),
    ...statementLog(options),
  });
  allowDirectStatements(db, {
    // As Kysely's SQLite driver runs a statement, minus its promises.
    run(sql, parameters) {
      const statement = prepare(sql);
      if (statement.reader) return statement.all(parameters);
      statement.run(parameters);
      return [];
    },
    inTransaction: () => sqlite.inTransaction,
  });
  allowSharedCommits(db);
  return {
    db,
    dialect: 'sqlite',
    poolStats: () => null,
    async patiently(work) {
      busyTimeout(DATABASE_TIMEOUTS.patientMs);
      try {
        return await work(db);
      } finally {
        busyTimeout(ownBusyMs);
      }
    },
    close: () => db.destroy(),
  };
}

/**
 * pg's client, giving up connecting after `timeoutMs` (pg-pool would apply its own wait deadline instead). The deadline
 * is pg's `connectionTimeoutMillis` but for one thing: a deadline whose timer runs late (`connectDeadline`) starts
 * again instead of ending the attempt, since an event loop that ran nothing for a while did not read the socket either
 * (decision 0183). pg's words stay ("timeout expired"), which `isDatabaseUnavailable` and the CLI know.
 */
function clientWithConnectTimeout(pg: typeof import('pg').default, timeoutMs: number): typeof pg.Client {
  return class extends pg.Client {
    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connectionTimeoutMillis: 0 });
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error) => void): void;
    override connect(callback?: (error: Error) => void): Promise<pg.Client> | void {
      // What pg's own timer does, but for `_ending`, which only hushes ECONNRESET and EPIPE after this error.
      const stop = connectDeadline(timeoutMs, () =>
        this.connection.stream.destroy(new Error(PG_CONNECT_TIMEOUT_MESSAGE)),
      );
      if (callback) {
        super.connect((error: Error) => {
          stop();
          callback(error);
        });
        return;
      }
      const connecting = super.connect();
      connecting.then(stop, stop);
      return connecting;
    }
  };
}

/**
 * A timer this much late or more means the event loop ran nothing else meanwhile: a busy wait, a long garbage
 * collection, a process the operating system left without a CPU. Measured (decision 0183): 0-2 ms on an idle machine
 * and up to 40 ms with six to eight busy processes on two cores, in a crowd of requests against a silent host; 2.4 s and
 * 4.4 s in a newly started server under that load.
 */
const LATE_TIMER_MS = 100;

/**
 * However late its timers run, an attempt ends at the last of this many deadlines: against a silent host, a load that
 * never lets up must not keep the waiting requests forever.
 */
const MOST_DEADLINES = 5;

/**
 * Calls `expire` after `ms`, unless the timer runs `LATE_TIMER_MS` or more late: then the socket may have had its
 * answer waiting, unread, since before the deadline, and an answer left unread is no evidence the database is
 * gone (which fails every waiting request, decision 0153). The deadline then starts again, the loop free once more,
 * up to MOST_DEADLINES times. Returns the function that stops it.
 */
function connectDeadline(ms: number, expire: () => void): () => void {
  let timer: NodeJS.Timeout;
  let deadlines = 0;
  const arm = () => {
    const due = performance.now() + ms;
    deadlines++;
    const startsAgain = () => performance.now() - due >= LATE_TIMER_MS && deadlines < MOST_DEADLINES;
    timer = setTimeout(() => (startsAgain() ? arm() : expire()), ms);
    // As pg's: an attempt under way does not keep a process alive that has nothing else to do.
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}

/**
 * What Kysely sees of the pool, with two guards:
 * - connections are checked out by `outageAwareCheckout`, so that requests answer 503 quickly while the database
 *   is unreachable, however many of them wait;
 * - after pg's query timeout the connection still waits for the lost answer, and Kysely would hand it back as
 *   healthy, so the next query would queue behind it; such a connection is released as broken instead and the
 *   pool opens a fresh one when needed.
 */
function resilientPool(pool: pg.Pool, checkout: Checkout, statementNames: StatementNames | null): pg.Pool {
  const timedOut = new WeakSet<pg.PoolClient>();
  const watched = new WeakSet<pg.PoolClient>();
  const connect = async () => {
    const client = await checkout();
    if (!watched.has(client)) {
      watched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        const text = args[0];
        const name = typeof text === 'string' ? statementNames?.nameOf(text) : undefined;
        const arrays = typeof text === 'string' && isArrayRowsSql(text);
        const result =
          name || arrays ? query({ name, text, values: args[1], ...(arrays && { rowMode: 'array' }) }) : query(...args);
        if (result instanceof Promise) {
          result.catch((error: unknown) => {
            if (error instanceof Error && error.message === 'Query read timeout') timedOut.add(client);
          });
        }
        return result;
      };
    }
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) =>
      release(error ?? (timedOut.has(client) ? new Error('query timed out; connection dropped') : undefined));
    return client;
  };
  // Kysely calls only these two.
  return { connect, end: () => pool.end() } as unknown as pg.Pool;
}

/** The connect deadline's error (`clientWithConnectTimeout`), in pg's words. */
const isConnectTimeout = (error: unknown) =>
  (error as { message?: unknown } | null)?.message === PG_CONNECT_TIMEOUT_MESSAGE;

/** Checks a connection out of the pool; `waiting()` counts the requests in our queue, for the pool's metrics. */
export interface Checkout {
  (): Promise<pg.PoolClient>;
  waiting(): number;
}

interface Waiter {
  resolve(client: pg.PoolClient): void;
  reject(error: unknown): void;
}

/**
 * Checks a connection out of pg-pool, failing fast while the database is unreachable (decisions 0050, 0153, 0174). An
 * attempt to connect to a server that never answers takes `connectMs`, and only `size` (the pool's) run at once, so
 * without these rules the 30th of 30 waiting requests would hear after five rounds of attempts:
 * - when an attempt finds no server to answer it (`reachedNoServer`), every request waiting for a connection fails
 *   with it at once: their own attempts would fail alike;
 * - for `failFastMs` after that, new requests fail at once instead of each making an attempt.
 * Requests wait in a queue of ours, and pg-pool is asked for a connection only when one of its `size` places is free,
 * so its own queue stays empty: pg-pool cannot take a waiter out of its queue, and each given-up request there would
 * later make an attempt of its own, against a server long known to be away. Out of ours, a given-up request leaves
 * without a trace. An attempt already under way when its request is given up still ends (it probes whether the
 * database is back), and the connection it gets goes straight back to the pool. Waiting for a busy pool whose
 * connections work has no deadline: only a failed attempt ends it.
 */
export function outageAwareCheckout(pool: Pick<pg.Pool, 'connect'>, size: number): Checkout {
  let failedAt: number | null = null;
  /** Requests waiting for a free place; none of them has asked pg-pool yet. */
  const queue: Waiter[] = [];
  /** Requests that asked pg-pool and wait for its answer (an attempt, or a connection another request gave back). */
  const asking = new Set<Waiter>();
  /** pg-pool's places we hold: connections checked out, and pg-pool answers still to come (given-up ones too). */
  let held = 0;
  /** Connections that came back whole so far: each one the server answered. */
  let served = 0;

  const failAllWaiting = (error: unknown) => {
    for (const waiter of [...queue, ...asking]) waiter.reject(error);
    queue.length = 0;
    asking.clear();
  };
  const askWhilePlacesAreFree = () => {
    while (held < size && queue.length > 0) ask(queue.shift()!);
  };
  const freePlace = () => {
    held--;
    askWhilePlacesAreFree();
  };
  const ask = (waiter: Waiter) => {
    held++;
    asking.add(waiter);
    const servedBefore = served;
    pool.connect().then(
      (client) => {
        failedAt = null;
        const release = client.release.bind(client);
        client.release = (error?: Error | boolean) => {
          // Back to pg-pool first, so that the next request in our queue gets this connection instead of a new one.
          // (A second release throws in pg-pool, so a place is never freed twice.)
          if (!error) served++;
          release(error);
          freePlace();
        };
        if (asking.delete(waiter)) waiter.resolve(client);
        else client.release();
      },
      (error: unknown) => {
        const stillWaiting = asking.delete(waiter);
        // An attempt that ran out of time while this pool's connections went on serving found a busy process (a
        // burst of requests, a slow fork), not a dead server: its request waits again for a connection (decision 0225).
        if (isConnectTimeout(error) && served > servedBefore) {
          if (stillWaiting) queue.unshift(waiter);
          freePlace();
          return;
        }
        if (reachedNoServer(error)) {
          failedAt = Date.now();
          // The attempt's own error: what each waiter's attempt would have said (and is logged with its 503).
          failAllWaiting(error);
        }
        if (stillWaiting) waiter.reject(error);
        freePlace();
      },
    );
  };

  const checkout = () => {
    if (failedAt !== null && Date.now() - failedAt < DATABASE_TIMEOUTS.failFastMs) {
      return Promise.reject(
        Object.assign(new Error('the database was unreachable a moment ago'), { code: 'ECONNREFUSED' }),
      );
    }
    return new Promise<pg.PoolClient>((resolve, reject) => {
      queue.push({ resolve, reject });
      askWhilePlacesAreFree();
    });
  };
  return Object.assign(checkout, { waiting: () => queue.length });
}

/**
 * Names for the SQL texts the app sends to PostgreSQL, so that each connection parses and plans a statement once
 * and then only binds values (pg's named prepared statements; docs/decisions/0111-postgres-round-trips.md). Kysely
 * sends values as parameters, so the distinct texts are few; past NAMED_STATEMENTS_MAX (a pathological caller) new
 * texts go unnamed, which bounds what each connection keeps prepared on the server.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  nameOf(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < NAMED_STATEMENTS_MAX) {
      name = `steady_${this.names.size}`;
      this.names.set(sql, name);
    }
    return name;
  }
}

const NAMED_STATEMENTS_MAX = 500;

const STATEMENT_CACHE_MAX = 500;

/**
 * Kysely prepares every query anew, which on a hot read (session lookup, goal list) costs as much as running it
 * (docs/decisions/0035-sqlite-statement-cache.md). Reusing a statement is safe because better-sqlite3 runs one
 * statement at a time, to its end, on the single connection (Kysely's driver and the direct statements alike).
 * Kysely sends values as parameters, so the distinct SQL texts are few; the bound only stops a pathological caller
 * from growing the cache forever.
 */
function statementCache(sqlite: SqliteDatabase.Database): (sql: string) => SqliteDatabase.Statement {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_MAX) statements.clear();
      statement = sqlite.prepare(sql);
      if (isArrayRowsSql(sql)) statement.raw(true);
      statements.set(sql, statement);
    }
    return statement;
  };
}
