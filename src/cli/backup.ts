import { parseArgs } from 'node:util';
import { backupDatabase, PgDumpMissing } from '../server/backup/backup.js';
import { usageError, type Work } from './work.js';

/** `steady backup FILE`: a consistent copy of the live database (docs/decisions/0074-backups.md). */
export function backupCommand(args: string[]): Work {
  const { positionals } = parseArgs({ args, options: {}, strict: true, allowPositionals: true });
  if (positionals.length !== 1 || !positionals[0]!.trim())
    throw usageError('give one file to write, e.g. steady backup steady-backup.db');
  const file = positionals[0]!;
  return async ({ deps, io }) => {
    try {
      const written = await backupDatabase(deps.config.database, file);
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
