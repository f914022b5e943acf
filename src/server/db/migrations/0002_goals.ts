import type { Kysely } from 'kysely';
import { addIdColumn, type DialectName, floatType, timestampType } from '../dialect.js';

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const ts = timestampType(dialect);
  await addIdColumn(db.schema.createTable('goals'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('daily', floatType(dialect), (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('sets_json', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('goals_user_id').on('goals').columns(['user_id', 'id']).execute();
  // Bumped with every change to a user's goals, so a cached goal list can be checked with one tiny read.
  await db.schema.alterTable('users').addColumn('goals_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
