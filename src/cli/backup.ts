import { parseArgs } from 'node:util';
import { backupDatabase, nameTaken, PgDumpMissing } from '../server/backup/backup.js';
import { usageError, type Work } from './work.js';

/**
 * `steady backup FILE [--force]`: a consistent copy of the live database (docs/decisions/0074-backups.md). An
 * existing FILE is replaced only with --force: a mistyped name must not cost last week's backup (decision 0215).
 */
export function backupCommand(args: string[]): Work {
  const { positionals, values } = parseArgs({
    args,
    options: { force: { type: 'boolean', default: false } },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length !== 1 || !positionals[0]!.trim())
    throw usageError('give one file to write, e.g. steady backup steady-backup.db');
  const file = positionals[0]!;
  // Refused before the database is opened (and migrated): nothing has happened when the operator reads this.
  if (!values.force && nameTaken(file))
    throw usageError(`${file} exists; name a new file, or give --force to replace it`);
  return async ({ deps, io }) => {
    try {
      const written = await backupDatabase(deps.config.database, file, { replace: values.force });
      io.out(`Backup written: ${written.file} (${written.bytes} bytes)`);
    } catch (error) {
      if (error instanceof PgDumpMissing) {
        for (const line of error.message.split('\n')) io.err(line);
        throw new Error('no backup was written');
      }
      throw error;
    }
  };
}
