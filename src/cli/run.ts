import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { listUsers } from '../server/accounts/store.js';
import { systemClock } from '../server/clock.js';
import { type Config, ConfigError, loadConfig } from '../server/config.js';
import type { AppDeps } from '../server/deps.js';
import { HttpError } from '../server/http/errors.js';
import { checkedInviteNote } from '../server/invites/note.js';
import { createInvite } from '../server/invites/service.js';
import { findServedBaseUrl } from '../server/ops/server-state-store.js';
import { openServices, type Services } from '../server/services.js';
import { backupCommand } from './backup.js';
import { copyCommand } from './copy.js';
import { resetLinkCommand } from './reset-link.js';
import { type CliOutput, type Work } from './work.js';

export const USAGE = `Usage: steady <command> [options]

Commands:
  invite [--note TEXT]   create a single-use invite, valid for 7 days; its URL is the last line printed
  users                  list the registered users
  migrate                apply pending database migrations (the server also does this at start)
  backup FILE [--force]  write a consistent copy of the live database to FILE (SQLite; pg_dump on PostgreSQL);
                         an existing FILE is replaced only with --force
  copy --to DATABASE_URL copy everything into an empty database (SQLite <-> PostgreSQL), ids kept
  reset-link EMAIL       print a password reset link for the user (for servers without SMTP); the link is the last line
  help                   show this help (also --help, -h)

steady reads the same environment as the server: DATABASE_URL, BASE_URL, SECRET_KEY, DATA_DIR, ...
Without BASE_URL, links use the address the server last started with.`;

export type { CliOutput } from './work.js';

/** Exit codes: 0 done, 1 the work failed (e.g. the database is unreachable), 2 wrong usage or configuration. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliOutput): Promise<number> {
  const [command, ...args] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return 0;
  }
  const prepare = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!prepare) {
    io.err(command === undefined ? 'steady: no command given' : `steady: unknown command "${command}"`);
    io.err(USAGE);
    return 2;
  }

  let work: Work;
  let config: Config;
  try {
    work = prepare(args);
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`steady: invalid configuration: ${error.message}`);
      return 2;
    }
    if (isUsageError(error)) {
      io.err(`steady ${command}: ${error.message} (see steady --help)`);
      return 2;
    }
    throw error;
  }

  const missing = missingDatabase(command, config);
  if (missing !== null) {
    io.err(`steady ${command}: ${missing}`);
    return 1;
  }

  let services: Services | undefined;
  try {
    // The commands send no mail, and stdout is the operator's: the outbox mailer's log stays silent. A wait for
    // another process's migration is told on stderr, as the server logs it (decision 0206).
    services = await openServices(config, {
      clock: systemClock,
      log: pino({ level: 'silent' }),
      migrationNotice: (message, details) =>
        io.err(`steady: ${message}${details ? ` (waited ${(details.waitedMs / 1000).toFixed(1)} s)` : ''}`),
    });
    await work({ deps: await withServedBaseUrl(services.deps, env), applied: services.applied, io });
    return 0;
  } catch (error) {
    io.err(`steady ${command}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await services?.close();
  }
}

/** Each command checks its arguments before anything is opened and returns the work to do. */
const COMMANDS: Record<string, (args: string[]) => Work> = {
  invite(args) {
    const { values } = parseArgs({
      args,
      options: { note: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    const note = checkedInviteNote(values.note);
    return async ({ deps, io }) => {
      const { url, expiresAt } = await createInvite(deps, null, note);
      const validUntil = new Date(expiresAt).toISOString();
      io.out(
        `Invite created: single use, valid until ${validUntil}${note === null ? '' : `, note: ${printable(note)}`}`,
      );
      io.out(url);
    };
  },

  users(args) {
    parseArgs({ args, options: {}, strict: true, allowPositionals: false });
    return async ({ deps, io }) => {
      const users = await listUsers(deps.db);
      if (users.length === 0) {
        io.out('No users yet. Create an invite with: steady invite');
        return;
      }
      const rows = users.map((u) => [String(u.id), printable(u.email), printable(u.name), formatUtc(u.created_at)]);
      for (const line of alignColumns([['ID', 'E-MAIL', 'NAME', 'REGISTERED (UTC)'], ...rows])) io.out(line);
    };
  },

  backup: backupCommand,
  copy: copyCommand,
  'reset-link': resetLinkCommand,

  migrate(args) {
    parseArgs({ args, options: {}, strict: true, allowPositionals: false });
    return async ({ applied, io }) => {
      io.out(applied.length === 0 ? 'The database is up to date.' : `Applied migrations: ${applied.join(', ')}`);
    };
  },
};

/** The one command that may create a database; the server creates one at its start as well. */
const CREATES_DATABASE = 'migrate';

/**
 * Opening a SQLite file creates it, and with it the folder and a secret.key: a mistyped DATABASE_URL would give every
 * command a fresh empty database, which `users` lists as "No users yet" and `backup` backs up as if it were the
 * real one. So only `migrate` may start from no file; the others stop before anything is opened or created.
 */
function missingDatabase(command: string | undefined, config: Config): string | null {
  const database = config.database;
  if (command === CREATES_DATABASE || database.kind !== 'sqlite' || fs.existsSync(database.file)) return null;
  return `no database at ${database.file} (DATABASE_URL); start the server once, or create it with: steady migrate`;
}

/**
 * Without a BASE_URL of its own the CLI links to the address the server last started with (it may run on another
 * PORT than the CLI's default), so `PORT=4311 npm start` and then `steady invite` prints a working link.
 */
async function withServedBaseUrl(deps: AppDeps, env: NodeJS.ProcessEnv): Promise<AppDeps> {
  if (env.BASE_URL?.trim()) return deps;
  const served = await findServedBaseUrl(deps.db);
  return served === null ? deps : { ...deps, config: loadConfig({ ...env, BASE_URL: served }) };
}

/** parseArgs' complaints (unknown option, missing value) and option values our checks refuse. */
function isUsageError(error: unknown): error is Error {
  if (error instanceof HttpError) return true;
  return error instanceof TypeError && String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
}

/**
 * Names (and addresses) are user input: control characters could move the operator's cursor or fake lines, and
 * bidirectional overrides or invisible characters could make one entry read as another. Each is shown as a
 * `\uXXXX` escape, and a backslash as `\\`, so the output is unambiguous.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\\]/g;

export function printable(value: string): string {
  return value.replace(UNPRINTABLE, (char) =>
    char === '\\' ? '\\\\' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function formatUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

function alignColumns(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}
