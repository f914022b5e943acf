import fs from 'node:fs';

/**
 * The data folder holds the database, the secret key and the mail outbox: it and the SQLite files are private to
 * the service's user (0700 / 0600), whatever the umask (docs/decisions/0066-file-modes.md).
 */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `folder` (and its parents) if needed and makes it 0700; an existing folder is tightened too. */
export function makePrivateFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  fs.chmodSync(folder, PRIVATE_FOLDER_MODE);
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
