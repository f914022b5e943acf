import type { DatabaseConfig } from '../config.js';
import { isDatabaseUnavailable } from './dialect.js';

/** Where a database is, without the password: the SQLite file, or PostgreSQL's host:port/database. */
export function databaseAddress(database: DatabaseConfig): string {
  if (database.kind === 'sqlite') return database.file;
  const url = new URL(database.url);
  return `${url.host}${url.pathname}`;
}

/**
 * An error of reaching a database, told so the operator knows which database and which setting named it: pg's own
 * words ("timeout expired", "connect ECONNREFUSED 10.0.0.5:5432") name neither. The server's start and every
 * `steady` command say it so (`openServices`), `steady copy` of its target. Other errors are returned as they are.
 */
export function unreachableDatabase(database: DatabaseConfig, setting: string, error: unknown): unknown {
  if (!isDatabaseUnavailable(error)) return error;
  const where = `the database at ${databaseAddress(database)}`;
  const { code, message } = error as { code?: unknown; message: string };
  // A server (or network) that takes the connection and then says nothing ends in pg's connect deadline, or in its
  // query deadline when it goes silent after connecting.
  if (code === 'ETIMEDOUT' || /^timeout/i.test(message) || message === 'Query read timeout')
    return new Error(`${where} did not answer (${setting})`, { cause: error });
  return new Error(`${where} is unavailable (${setting}): ${message}`, { cause: error });
}
