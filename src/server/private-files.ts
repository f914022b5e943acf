import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.js';

/**
 * The data folder holds the database, the secret key and the mail outbox: it and the SQLite files are private to
 * the service's user (0700 / 0600), whatever the umask (docs/decisions/0066-file-modes.md).
 */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `folder` (and its parents) if needed and makes it 0700; an existing folder is tightened too. A folder that
 * others share (sticky and world-writable, like /tmp) is refused instead: tightening it would lock them out, and
 * Steady's secrets need a folder of their own.
 */
export function makePrivateFolder(folder: string): void {
  makeFolders(folder);
  const { mode } = fs.statSync(folder);
  if ((mode & STICKY_AND_WORLD_WRITABLE) === STICKY_AND_WORLD_WRITABLE) {
    throw new Error(`${folder} is shared with other users (like /tmp); give Steady a folder of its own`);
  }
  fs.chmodSync(folder, PRIVATE_FOLDER_MODE);
}

const STICKY_AND_WORLD_WRITABLE = 0o1002;

/** `makePrivateFolder` for a folder the operator names with `variable`: a failure is a configuration error. */
export function makeConfiguredFolder(variable: string, folder: string, hint = ''): void {
  try {
    makePrivateFolder(folder);
  } catch (error) {
    throw new ConfigError(variable, `${error instanceof Error ? error.message : String(error)}${hint}`);
  }
}

/**
 * `mkdir -p`, by hand: Node's recursive mkdirSync never returns for a folder that cannot be made under a parent
 * that exists, such as /proc/steady (seen on Node 20); here that fails with ENOENT.
 */
function makeFolders(folder: string): void {
  try {
    fs.mkdirSync(folder, { mode: PRIVATE_FOLDER_MODE });
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST' && fs.statSync(folder).isDirectory()) return;
    const parent = path.dirname(folder);
    if (code !== 'ENOENT' || parent === folder || fs.existsSync(parent)) throw error;
    makeFolders(parent);
    fs.mkdirSync(folder, { mode: PRIVATE_FOLDER_MODE });
  }
}

/** Makes `file` 0600, creating it empty when `create` is set and it does not exist; a missing file is skipped otherwise. */
export function makePrivateFile(file: string, { create = false } = {}): void {
  if (create) fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
