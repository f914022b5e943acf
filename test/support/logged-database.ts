import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/schema.js';

/**
 * A Kysely of its own on the database of `config` that records the SQL of every statement it sends, for tests that
 * count a code path's statements. A plain Kysely: no statement cache, no direct statements (decision 0124).
 */
export function loggedDatabase(config: DatabaseConfig): {
  db: Kysely<Database>;
  statements: string[];
  /** The same statements with their parameters (to EXPLAIN one as it ran). */
  queries: CompiledQuery[];
  close(): Promise<void>;
} {
  const statements: string[] = [];
  const queries: CompiledQuery[] = [];
  const dialect =
    config.kind === 'postgres'
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: config.url, max: 4 }) })
      : new SqliteDialect({ database: new SqliteDatabase(config.file) });
  const db = new Kysely<Database>({
    dialect,
    log: (event) => {
      statements.push(event.query.sql);
      queries.push(event.query);
    },
  });
  return { db, statements, queries, close: () => db.destroy() };
}
