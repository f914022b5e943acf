import type { AppDeps } from '../server/deps.js';
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
