import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Every foreign key gets an index it can use (docs/decisions/0136-foreign-key-indexes.md). The partial index on a
 * goal's live entries could not serve `goal_id` alone, so deleting a goal (its explicit delete and the ON DELETE
 * CASCADE) scanned every goal's entries: 169 ms among 1.3 million amounts on SQLite, holding the write lock. It
 * becomes an index over all of a goal's rows, tombstones included, in the same order, so a log still writes the
 * same number of index pages. `invites.used_by`, emptied when an account is deleted, gets an index of its own.
 */
export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  await db.schema.dropIndex('goal_entries_goal_date').execute();
  await db.schema.createIndex('goal_entries_goal_date').on('goal_entries').columns(['goal_id', 'date', 'id']).execute();
  await db.schema.createIndex('invites_used_by').on('invites').column('used_by').execute();
}
