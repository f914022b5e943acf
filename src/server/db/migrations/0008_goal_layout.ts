import type { Kysely } from 'kysely';
import { type DialectName, timestampType } from '../dialect.js';

/**
 * How a person arranges their goals (docs/decisions/0093-goal-layout.md): a place in their own order and whether the
 * goal is archived. One row per goal that was ever moved or archived; a goal without a row comes after the placed
 * ones in creation order and is not archived. Kept apart from `goals` so the spec's goal list keeps its shape.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('goal_layout')
    .addColumn('goal_id', 'integer', (c) => c.primaryKey().references('goals.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // null: never placed (after the placed goals, in creation order).
    .addColumn('position', 'integer')
    // null: not archived.
    .addColumn('archived_at', timestampType(dialect))
    .execute();
  await db.schema.createIndex('goal_layout_user_id').on('goal_layout').column('user_id').execute();
}
