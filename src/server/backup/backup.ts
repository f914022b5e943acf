import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import type { DatabaseConfig } from '../config.js';
import { PRIVATE_FILE_MODE } from '../private-files.js';
import { BACKUP_RUNS_TABLE, CLEAR_BACKUP_RUNS_SQL } from './store.js';
import { PG_DRIVER_DEFAULT_HOST } from '../db/unreachable.js';

const run = promisify(execFile);

/** How to back up and restore PostgreSQL by hand, for operators without pg_dump on the server's machine. */
export const PG_DUMP_HOWTO = [
  'Back up PostgreSQL with pg_dump (from the PostgreSQL client tools), e.g.:',
  `  pg_dump --format=custom --no-owner --exclude-table-data=${BACKUP_RUNS_TABLE} --file=steady.dump "$DATABASE_URL"`,
  'Restore into an empty database with:',
  '  pg_restore --no-owner --dbname="$DATABASE_URL" steady.dump',
];

export class PgDumpMissing extends Error {
  constructor() {
    super(`pg_dump was not found on PATH.\n${PG_DUMP_HOWTO.join('\n')}`);
    this.name = 'PgDumpMissing';
  }
}

/**
 * A consistent copy of the live database at `target`, which appears complete or not at all: the copy is written
 * to a temporary file beside it (mode 0600: it holds password hashes) and renamed into place. SQLite: `VACUUM INTO`
 * in a Node process of its own (the server goes on answering), which reads one snapshot while the server goes on writing (WAL). PostgreSQL: pg_dump
 * (custom format), which also reads one snapshot. The copy holds no rows of `backup_runs` (decision 0214). An
 * existing `target` is replaced only with `replace` (`steady backup --force`); without it `steady backup` refuses
 * one before it opens the database (decision 0215), and the scheduler sets its day's file aside first (0223).
 */
export async function backupDatabase(
  database: DatabaseConfig,
  target: string,
  { replace }: { replace: boolean },
): Promise<{ file: string; bytes: number }> {
  const file = path.resolve(target);
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.partial-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  if (isFolder(file)) throw new Error(`cannot write ${file}: it is a folder; name a file in it`);
  // Created empty and private first, so the copy is never readable by others, not even for a moment.
  try {
    fs.closeSync(fs.openSync(temporary, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    throw new Error(`cannot write ${file}: ${whyNotWritable(error, path.dirname(file))}`);
  }
  try {
    if (database.kind === 'sqlite') await vacuumInto(database.file, temporary);
    else await pgDump(database.url, temporary);
    const handle = fs.openSync(temporary, 'r+');
    try {
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    // A file made under that name while the copy was written (another backup given the same name) is kept; the
    // time between this look and the rename is too short for an operator's typing to fall into.
    if (!replace && nameTaken(file))
      throw new Error(`${file} was made while the backup was written; it was left as it is`);
    fs.renameSync(temporary, file);
    syncDirectory(path.dirname(file));
    return { file, bytes: fs.statSync(file).size };
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Whether something other than a folder has the name `file` (a file, or a link, which a rename would replace). A
 * name that cannot be looked at (its folder missing or not a folder) is not taken: the write fails on it and says why.
 */
export function nameTaken(file: string): boolean {
  try {
    const found = fs.lstatSync(file, { throwIfNoEntry: false });
    return found !== undefined && !found.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether `file` names a folder. A name that cannot be looked at (a file where its folder should be) is none: making
 * the temporary file beside it then fails, and `whyNotWritable` says why in the operator's terms.
 */
function isFolder(file: string): boolean {
  try {
    return fs.statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * Why the temporary file could not be made, in the terms of the operator's own path: the error itself names only
 * the temporary file, a name the operator never gave.
 */
function whyNotWritable(error: unknown, folder: string): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return `the folder ${folder} does not exist`;
    case 'ENOTDIR':
      return `${folder} is not a folder`;
    case 'EACCES':
    case 'EPERM':
      return `no permission to write in the folder ${folder}`;
    case 'EROFS':
      return `the folder ${folder} is on a read-only file system`;
    default:
      return (error as Error).message;
  }
}

/**
 * `VACUUM INTO` in a Node process of its own. better-sqlite3 runs a statement on the calling thread, so in the
 * server the daily backup held the event loop for the whole copy: no request, not even /healthz, was answered
 * (0.65 s for 1.5 million amounts, 139 MB, on a fast disk; longer on a slow one). The child reads one snapshot
 * as before (WAL), so the server's writes go on meanwhile (docs/decisions/0212-the-sqlite-backup-runs-beside-the-server.md).
 */
async function vacuumInto(source: string, temporary: string): Promise<void> {
  try {
    await run(
      process.execPath,
      ['--input-type=commonjs', '-e', VACUUM_INTO_CHILD, betterSqlite3Path(), source, temporary, CLEAR_BACKUP_RUNS_SQL],
      {
        // Only what the child needs: the server's environment holds secrets it has no use for.
        env: { PATH: process.env.PATH ?? '' },
        maxBuffer: 1024 * 1024,
      },
    );
  } catch (error) {
    // The child printed SQLite's own message ("database or disk is full", "unable to open database file").
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(stderr || (error as Error).message);
  }
}

/**
 * The child's script: argv holds better-sqlite3's path, the database file, the temporary target and the statement
 * that empties the copy's backup records (decision 0214).
 */
const VACUUM_INTO_CHILD = `
const [Database, source, target, clearBackupRuns] = [require(process.argv[1]), ...process.argv.slice(2)];
try {
  // fileMustExist: a mistyped DATABASE_URL must not back up a fresh empty database.
  const connection = new Database(source, { fileMustExist: true });
  try {
    connection.pragma('busy_timeout = 5000');
    connection.prepare('VACUUM INTO ?').run(target);
  } finally {
    connection.close();
  }
  const copy = new Database(target, { fileMustExist: true });
  try {
    copy.exec(clearBackupRuns);
  } finally {
    copy.close();
  }
} catch (error) {
  process.stderr.write(String(error && error.message));
  process.exit(1);
}
`;

/** Where the server's own better-sqlite3 is, so the child loads the same build of it (bundled or from src/). */
function betterSqlite3Path(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3');
}

async function pgDump(url: string, temporary: string): Promise<void> {
  // The password travels in the environment, not on the command line where `ps` shows it to every local user.
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  try {
    const args = [
      '--format=custom',
      '--no-owner',
      // The table's definition is kept, its rows left out (decision 0214).
      `--exclude-table-data=${BACKUP_RUNS_TABLE}`,
      `--file=${temporary}`,
      `--dbname=${parsed.href}`,
    ];
    await run('pg_dump', args, {
      env: {
        ...process.env,
        // A URL without a host is localhost over TCP to the server and the Unix socket to libpq: without this, the
        // backup could be of another database than the one served, or fail where the server connects (decision 0226).
        PGHOST: process.env.PGHOST || PG_DRIVER_DEFAULT_HOST,
        ...(password && { PGPASSWORD: password }),
      },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new PgDumpMissing();
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`pg_dump failed: ${stderr || (error as Error).message}`);
  }
}

/** Makes the rename itself durable (a crash right after still finds the new name). */
function syncDirectory(directory: string): void {
  try {
    const handle = fs.openSync(directory, 'r');
    try {
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  }
}
