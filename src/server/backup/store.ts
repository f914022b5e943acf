import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The table of the days claimed and backed up. A backup copy holds none of its rows: they tell of the backups of the
 * database copied, and a server started on the copy must make its own. A copy taken while its own day was claimed
 * (every daily one) kept that claim, and a server restored from it the same day skipped the day (decision 0214).
 */
export const BACKUP_RUNS_TABLE = 'backup_runs';

/** Empties the table in a SQLite copy; run by the copying process on the copy before it is renamed into place. */
export const CLEAR_BACKUP_RUNS_SQL = `DELETE FROM ${BACKUP_RUNS_TABLE}`;

/**
 * Claims the backup of `day` for this process. Exactly one of several processes gets it: the insert is atomic on
 * both engines. A claim left unfinished for `staleMs` (its process died mid-backup) may be taken over.
 */
export async function claimBackupDay(
  db: Kysely<Database>,
  day: string,
  now: number,
  staleMs: number,
): Promise<boolean> {
  const inserted = await db
    .insertInto('backup_runs')
    .values({ day, claimed_at: now, done_at: null })
    .onConflict((oc) => oc.column('day').doNothing())
    .returning('day')
    .executeTakeFirst();
  if (inserted) return true;
  const takenOver = await db
    .updateTable('backup_runs')
    .set({ claimed_at: now })
    .where('day', '=', day)
    .where('done_at', 'is', null)
    .where('claimed_at', '<=', now - staleMs)
    .executeTakeFirst();
  return Number(takenOver.numUpdatedRows) > 0;
}

export async function finishBackupDay(db: Kysely<Database>, day: string, now: number): Promise<void> {
  await db.updateTable('backup_runs').set({ done_at: now }).where('day', '=', day).execute();
}

/** Gives a failed day back, so the next check (of any process) tries again. */
export async function releaseBackupDay(db: Kysely<Database>, day: string): Promise<void> {
  await db.deleteFrom('backup_runs').where('day', '=', day).where('done_at', 'is', null).execute();
}

/** When the newest finished backup (by any process) was written, in ms since the epoch; null before the first. */
export async function lastBackupDoneAt(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom('backup_runs')
    .select((eb) => eb.fn.max('done_at').as('last'))
    .executeTakeFirst();
  return row?.last == null ? null : Number(row.last);
}
