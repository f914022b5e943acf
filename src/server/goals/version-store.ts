import type { Kysely } from 'kysely';
import { precompiled } from '../db/precompiled.js';
import type { Database } from '../db/schema.js';

/** Read before every goal list, hence compiled once. */
const goalsVersionQuery = precompiled((db: Kysely<Database>, p: { userId: number }) =>
  db.selectFrom('users').select('goals_version').where('id', '=', p.userId),
);

/** The counter that every change to the user's goals increases (see `bumpGoalsVersion`). */
export async function goalsVersion(db: Kysely<Database>, userId: number): Promise<number> {
  const [row] = await goalsVersionQuery(db, { userId });
  return row?.goals_version ?? 0;
}

/** Every write to a user's goals calls this in the same transaction, after its write to the goal row. */
export async function bumpGoalsVersion(trx: Kysely<Database>, userId: number): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ goals_version: eb('goals_version', '+', 1) }))
    .where('id', '=', userId)
    .execute();
}
