import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Every write to a user's goals calls this in the same transaction, after its write to the goal row. */
export async function bumpGoalsVersion(trx: Kysely<Database>, userId: number): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ goals_version: eb('goals_version', '+', 1) }))
    .where('id', '=', userId)
    .execute();
}
