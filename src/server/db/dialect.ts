import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/**
 * Every difference between SQLite and PostgreSQL that the code cares about lives here, so stores and
 * migrations never branch on the engine themselves.
 */
export type DialectName = 'sqlite' | 'postgres';

/** Adds an auto-incrementing integer primary key named `id`. */
export function addIdColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: DialectName,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** Column type for Unix-millisecond timestamps: SQLite's integer is 64-bit, PostgreSQL needs bigint. */
export function timestampType(dialect: DialectName): 'integer' | 'bigint' {
  return dialect === 'postgres' ? 'bigint' : 'integer';
}

/** Column type for floating-point numbers. */
export function floatType(dialect: DialectName): 'real' | 'double precision' {
  return dialect === 'postgres' ? 'double precision' : 'real';
}

/** True when `error` is a unique-constraint violation from either engine. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * PostgreSQL SQLSTATE classes and codes that mean "the database cannot serve now" rather than "this request is
 * wrong": 08 connection exceptions, 53 insufficient resources, 57 operator intervention (shutdown, statement
 * timeout), 58 system errors.
 */
const PG_UNAVAILABLE = /^(08|53|57|58)/;
/** A SQLSTATE: an error PostgreSQL itself sent, as opposed to one of the socket or of pg. */
const SQLSTATE = /^[0-9A-Z]{5}$/;
/** Errors of a socket to PostgreSQL, or of pg giving up on one. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** pg's error when a connection attempt runs out of time (also the words of Steady's own deadline, db/open.ts). */
export const PG_CONNECT_TIMEOUT_MESSAGE = 'timeout expired';

const PG_CLIENT_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Connection ended unexpectedly',
  PG_CONNECT_TIMEOUT_MESSAGE,
];

/**
 * True when `error` says the database is unreachable, overloaded or out of room (answered 503
 * database_unavailable), as opposed to a bug: SQLite busy beyond its timeout, disk or database full, I/O errors;
 * PostgreSQL unreachable, restarting, too slow.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|NOMEM)/.test(code)) return true;
    if (SQLSTATE.test(code) && PG_UNAVAILABLE.test(code)) return true;
    if (NETWORK_CODES.has(code)) return true;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && PG_CLIENT_MESSAGES.some((known) => message.startsWith(known));
}

/**
 * True when a connection attempt found no PostgreSQL to answer it (refused, timed out, reset): every other attempt
 * now would fail alike. A refusal the server itself gave, with a SQLSTATE (53300 too many clients, say), concerns
 * that connection: the pool's working connections may still serve (decision 0153).
 */
export function reachedNoServer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isDatabaseUnavailable(error) && !(typeof code === 'string' && SQLSTATE.test(code));
}

/**
 * Whether `db` runs INSERT, UPDATE and DELETE inside WITH (PostgreSQL's data-modifying CTEs; SQLite allows only
 * SELECT there). A store uses it to send several writes as one statement, which saves a round trip each on a
 * database across the network and is no gain in process (decision 0111).
 */
export function chainsWritesInOneStatement(db: Kysely<any>): boolean {
  return isPostgres(db);
}

/**
 * Whether each query to `db` is a round trip to another process (PostgreSQL), as opposed to a call into the
 * embedded SQLite. A store uses it to let concurrent requests share one query (decision 0123), which saves round
 * trips across the network; in process it saves little and costs memory.
 */
export function queriesTakeARoundTrip(db: Kysely<any>): boolean {
  return isPostgres(db);
}

/**
 * Whether `db` has an index of each user's live entries (`goal_entries_user`): PostgreSQL does; SQLite dropped it so
 * that a logged amount writes one index less, and reads a user's entries through the user's goals (decision 0218).
 */
export function indexesEntriesByUser(db: Kysely<any>): boolean {
  return isPostgres(db);
}

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
