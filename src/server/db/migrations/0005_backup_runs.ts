import type { Kysely } from 'kysely';
import { type DialectName, timestampType } from '../dialect.js';

/**
 * One row per scheduled backup day: several server processes on one database claim the day here, so exactly one of
 * them writes the day's backup (docs/decisions/0075-scheduled-backups.md).
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const ts = timestampType(dialect);
  await db.schema
    .createTable('backup_runs')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('claimed_at', ts, (c) => c.notNull())
    .addColumn('done_at', ts)
    .execute();
}
