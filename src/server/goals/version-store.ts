import { type Kysely, type QueryCreator, sql } from 'kysely';
import { precompiled } from '../db/precompiled.js';
import type { Database } from '../db/schema.js';

/** The statement of `bumpGoalsVersion`, for a caller that sends it together with others (entries-store.ts). */
export function goalsVersionBump(trx: QueryCreator<Database>, userId: number) {
  // The 1 is SQL, not a bound value, so the statement can be precompiled (precompiled.ts binds only placeholders).
  return trx
    .updateTable('users')
    .set({ goals_version: sql<number>`${sql.ref('goals_version')} + 1` })
    .where('id', '=', userId);
}

const versionBump = precompiled((trx: Kysely<Database>, p: { userId: number }) => goalsVersionBump(trx, p.userId));

/** Every write to a user's goals calls this in the same transaction, after its write to the goal row. */
export async function bumpGoalsVersion(trx: Kysely<Database>, userId: number): Promise<void> {
  await versionBump(trx, { userId });
}
