import { type Kysely, sql } from 'kysely';
import { type DialectName, timestampType } from '../dialect.js';

/**
 * `reminders.time_set_at`: when the reminder's time was last set (made, its time changed, imported). A reminder set
 * after its time had passed that day first rings the next day; one missed while no server ran still rings late
 * (docs/decisions/0177-a-reminder-set-after-its-time.md). Rows kept so far take `updated_at`, the last time they
 * were saved, the nearest record there is. The default only fills the existing rows; Steady always writes the column.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('reminders')
    .addColumn('time_set_at', timestampType(dialect), (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .updateTable('reminders')
    .set({ time_set_at: sql`updated_at` })
    .execute();
}
