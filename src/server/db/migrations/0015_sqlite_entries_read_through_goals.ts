import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * SQLite drops `goal_entries_user`, the partial index of a user's live entries (decision 0218): every logged amount
 * wrote it, for the goal list's read alone, which SQLite now makes through the user's goals and
 * `goal_entries_goal_date`. Without it a logged amount and its share of the commit cost 32 µs instead of 59 in a loop
 * of their own. PostgreSQL keeps it: its planner could take the other read as a scan of every user's entries.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') await db.schema.dropIndex('goal_entries_user').execute();
}
