import { spawn } from 'node:child_process';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { MIGRATION_LOCK_KEY } from '../../src/server/db/migrate.js';
import { projectRoot } from '../../src/server/paths.js';

/** What a start says when it waits for another process's migration, and when it goes on (decision 0206). */
export const WAITING = "waiting for another process's migration (lock held)";
export const GOING_ON = "another process's migration is done; going on";

/**
 * Another process in the middle of a migration: on PostgreSQL it holds the advisory lock, on SQLite the write lock
 * (of a fresh file, in WAL mode as ours).
 */
export async function holdMigrationLock(
  engine: 'sqlite' | 'postgres',
  url: string,
): Promise<{ release(): Promise<void> }> {
  if (engine === 'sqlite') {
    const other = new SqliteDatabase(url.slice('sqlite:'.length));
    other.pragma('journal_mode = WAL');
    other.exec('BEGIN IMMEDIATE');
    return { release: async () => void other.exec('ROLLBACK').close() };
  }
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  return { release: () => other.end() };
}

/** `steady migrate` as its own process, its stderr read while it runs. */
export function migrateWatched(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'migrate'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { stdout: () => stdout, stderr: () => stderr, exited, kill: () => child.kill('SIGKILL') };
}
