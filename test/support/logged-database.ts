import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
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
  close(): Promise<void>;
} {
  const statements: string[] = [];
  const dialect =
    config.kind === 'postgres'
      ? new PostgresDialect({ pool: new pg.Pool({ connectionString: config.url, max: 4 }) })
      : new SqliteDialect({ database: new SqliteDatabase(config.file) });
  const db = new Kysely<Database>({ dialect, log: (event) => void statements.push(event.query.sql) });
  return { db, statements, close: () => db.destroy() };
}
