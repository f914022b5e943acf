import type { DatabaseConfig } from '../config.js';
import { isDatabaseUnavailable } from './dialect.js';

/**
 * Where a database is, without the password: the SQLite file, or PostgreSQL's host:port/database. A host that is a
 * folder (`?host=/var/run/postgresql`, or `%2Fvar%2Frun%2Fpostgresql` in the host's place) is a Unix socket, shown as
 * the socket file pg connects to, `/var/run/postgresql/.s.PGSQL.5432 (database steady)`. The `host` and `port`
 * parameters win over the URL's, as in pg's own reading (pg-connection-string).
 */
export function databaseAddress(database: DatabaseConfig): string {
  if (database.kind === 'sqlite') return database.file;
  const url = new URL(database.url);
  const hostParameter = url.searchParams.get('host');
  const port = url.searchParams.get('port') || url.port;
  const host = hostParameter || decodeURIComponent(url.hostname);
  if (host.startsWith('/')) {
    const name = decodeURIComponent(url.pathname.slice(1));
    return `${host.replace(/\/+$/, '')}/.s.PGSQL.${port || '5432'}${name ? ` (database ${name})` : ''}`;
  }
  return `${hostParameter ? `${host}${port ? `:${port}` : ''}` : url.host}${url.pathname}`;
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
