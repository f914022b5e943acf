import type { Kysely } from 'kysely';
import { type DialectName, timestampType } from '../dialect.js';

/** Facts a running server leaves for other processes on the same database, e.g. the BASE_URL it serves. */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('server_state')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', timestampType(dialect), (c) => c.notNull())
    .execute();
}
