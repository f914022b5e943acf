import type { Kysely } from 'kysely';

/**
 * An embedded SQLite connection, as precompiled queries run statements on it without Kysely's driver
 * (decision 0124): the driver's connection mutex and promises cost more than the statement itself.
 */
export interface DirectStatements {
  /** Runs one statement: the rows of a statement that returns any, else none. */
  run(sql: string, parameters: readonly unknown[]): unknown[];
  /** True while a transaction is open on the connection. */
  inTransaction(): boolean;
}

const byAdapter = new WeakMap<object, DirectStatements>();

/** Lets precompiled queries on `db` and its transactions (they share its adapter) run on `statements`. */
export function allowDirectStatements(db: Kysely<any>, statements: DirectStatements): void {
  byAdapter.set(db.getExecutor().adapter, statements);
}

/**
 * Where a statement for `db` may run at once, or undefined when it must queue in Kysely: always on PostgreSQL, and
 * on SQLite when `db` is not a transaction while one is open. SQLite has one connection, so a statement run then
 * would become part of another request's transaction and see its uncommitted writes. A transaction's own
 * statements, and statements while no transaction is open, run at once: better-sqlite3 is synchronous, so nothing
 * else can be half-way through a statement (Steady never streams a query on SQLite, which would hold the connection
 * between rows).
 */
export function directStatementsFor(db: Kysely<any>): DirectStatements | undefined {
  const statements = byAdapter.get(db.getExecutor().adapter);
  if (!statements) return undefined;
  return db.isTransaction || !statements.inTransaction() ? statements : undefined;
}
