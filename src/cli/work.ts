import type { DatabaseConfig } from '../server/config.js';
import type { AppDeps } from '../server/deps.js';
import { isDatabaseUnavailable } from '../server/db/dialect.js';
import { badRequest } from '../server/http/errors.js';

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export interface WorkContext {
  deps: AppDeps;
  /** Migrations this run applied (every command migrates first, as the server does). */
  applied: string[];
  io: CliOutput;
}

/** What a command does once the database is open; it checked its arguments before (and may throw usage errors). */
export type Work = (context: WorkContext) => Promise<void>;

/** A wrong argument: `steady` prints it with a pointer to --help and exits 2. */
export const usageError = (message: string) => badRequest('bad_request', message);

/** Where a database is, without the password: the SQLite file, or PostgreSQL's host:port/database. */
export function databaseAddress(database: DatabaseConfig): string {
  if (database.kind === 'sqlite') return database.file;
  const url = new URL(database.url);
  return `${url.host}${url.pathname}`;
}

/**
 * An error of reaching a database, told so the operator knows which database and which setting named it: pg's own
 * words ("timeout expired", "connect ECONNREFUSED 10.0.0.5:5432") name neither. Other errors are returned as they are.
 */
export function unreachableDatabase(database: DatabaseConfig, setting: string, error: unknown): unknown {
  if (!isDatabaseUnavailable(error)) return error;
  const where = `the database at ${databaseAddress(database)}`;
  const { code, message } = error as { code?: unknown; message: string };
  // A server (or network) that takes the connection and then says nothing ends in pg's connect deadline, or in its
  // query deadline when it goes silent after connecting.
  if (code === 'ETIMEDOUT' || /^timeout/i.test(message) || message === 'Query read timeout')
    return new Error(`${where} did not answer (${setting})`);
  return new Error(`${where} is unavailable (${setting}): ${message}`);
}
