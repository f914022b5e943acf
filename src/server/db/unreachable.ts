import type { DatabaseConfig } from '../config.js';
import { isDatabaseUnavailable } from './dialect.js';

/**
 * Where pg, Steady's driver, connects when neither the URL nor PGHOST names a host. libpq (psql, pg_dump) would take
 * its Unix socket instead; operator tools are given this host so they reach the database the server uses.
 */
export const PG_DRIVER_DEFAULT_HOST = 'localhost';

/**
 * Where a database is, without the password: the SQLite file, or PostgreSQL's host:port/database. A host that is a
 * folder (`?host=/var/run/postgresql`, or `%2Fvar%2Frun%2Fpostgresql` in the host's place) is a Unix socket, shown as
 * the socket file pg connects to, `/var/run/postgresql/.s.PGSQL.5432 (database steady)`. Host and port are read as
 * pg reads them (pg-connection-string, then pg's defaults): the `host` and `port` parameters win over the URL's,
 * and what neither gives comes from PGHOST and PGPORT (`env`, the process's own, which pg reads), else localhost.
 * A URL without a host (`postgres:///steady`) is therefore localhost over TCP, not the Unix socket that libpq
 * (psql, pg_dump) would use: the address names where the server's connection went (decision 0215).
 */
export function databaseAddress(database: DatabaseConfig, env: NodeJS.ProcessEnv = process.env): string {
  if (database.kind === 'sqlite') return database.file;
  const url = new URL(database.url);
  const host = url.searchParams.get('host') || decodeURIComponent(url.hostname) || env.PGHOST || PG_DRIVER_DEFAULT_HOST;
  const port = url.searchParams.get('port') || url.port || env.PGPORT;
  if (host.startsWith('/')) {
    const name = decodeURIComponent(url.pathname.slice(1));
    return `${host.replace(/\/+$/, '')}/.s.PGSQL.${port || '5432'}${name ? ` (database ${name})` : ''}`;
  }
  return `${host}${port ? `:${port}` : ''}${url.pathname}`;
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
