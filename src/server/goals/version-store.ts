import type { Kysely, QueryCreator } from 'kysely';
import type { Database } from '../db/schema.js';

/** Every write to a user's goals calls this in the same transaction, after its write to the goal row. */
export async function bumpGoalsVersion(trx: Kysely<Database>, userId: number): Promise<void> {
  await goalsVersionBump(trx, userId).execute();
}

/** The statement of `bumpGoalsVersion`, for a caller that sends it together with others (entries-store.ts). */
export function goalsVersionBump(trx: QueryCreator<Database>, userId: number) {
  return trx
    .updateTable('users')
    .set((eb) => ({ goals_version: eb('goals_version', '+', 1) }))
    .where('id', '=', userId);
}
