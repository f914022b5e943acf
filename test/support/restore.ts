import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { type DatabaseConfig, parseDatabaseUrl } from '../../src/server/config.js';
import { createTestDatabase } from './database.js';

const run = promisify(execFile);

/**
 * Restores a backup as the README says, into a fresh database a server can be started on (`createTestApp(env)`):
 * SQLite: the file copied in place of the database; PostgreSQL: `pg_restore --no-owner` into an empty database.
 */
export async function restoreBackup(
  kind: DatabaseConfig['kind'],
  file: string,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const restored = await createTestDatabase(kind);
  const database = parseDatabaseUrl(restored.url);
  if (database.kind === 'sqlite') fs.copyFileSync(file, database.file);
  else await run('pg_restore', ['--no-owner', `--dbname=${restored.url}`, file]);
  return { env: { DATABASE_URL: restored.url, DATA_DIR: restored.dataDir }, drop: () => restored.drop() };
}
