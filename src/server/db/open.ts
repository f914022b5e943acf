import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { makePrivateFile, makePrivateFolder } from '../private-files.js';
import type { DialectName } from './dialect.js';
import type { Database } from './schema.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

// PostgreSQL returns bigint (our millisecond timestamps) as strings; they fit a JS number exactly.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  makePrivateFolder(path.dirname(config.file));
  // SQLite gives the -wal and -shm files the mode of the database file, so making that one 0600 before opening
  // covers all three; files left by an older version are tightened here as well.
  makePrivateFile(config.file, { create: true });
  for (const suffix of ['-wal', '-shm']) makePrivateFile(`${config.file}${suffix}`);
  const sqlite = new SqliteDatabase(config.file);
  // WAL lets readers run beside the one writer; the busy timeout makes a second process wait, not fail.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

const STATEMENT_CACHE_MAX = 500;

/**
 * Kysely prepares every query anew, which on a hot read (session lookup, goal list) costs as much as running it
 * (docs/decisions/0035-sqlite-statement-cache.md). Reusing a statement is safe because Kysely's SQLite driver runs
 * one query at a time on its single connection. Kysely sends values as parameters, so the distinct SQL texts are
 * few; the bound only stops a pathological caller from growing the cache forever.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_MAX) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
