import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export async function insertReset(
  db: Kysely<Database>,
  reset: { selector: string; tokenHash: string; userId: number; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({
      selector: reset.selector,
      token_hash: reset.tokenHash,
      user_id: reset.userId,
      created_at: reset.now,
      expires_at: reset.expiresAt,
    })
    .execute();
  // Sweeping the user's own expired links here keeps the table small without a background job.
  await db
    .deleteFrom('password_resets')
    .where('user_id', '=', reset.userId)
    .where('expires_at', '<=', reset.now)
    .execute();
}

export async function findResetBySelector(db: Kysely<Database>, selector: string) {
  return db
    .selectFrom('password_resets')
    .select(['token_hash', 'expires_at'])
    .where('selector', '=', selector)
    .executeTakeFirst();
}

export async function deleteResetBySelector(db: Kysely<Database>, selector: string): Promise<void> {
  await db.deleteFrom('password_resets').where('selector', '=', selector).execute();
}

/**
 * Consumes a valid reset link as the first write of the reset transaction and returns its user, or undefined
 * when a parallel request consumed it first (its DELETE holds the row lock / write lock until commit).
 */
export async function claimReset(
  trx: Kysely<Database>,
  reset: { selector: string; tokenHash: string; now: number },
): Promise<number | undefined> {
  const claimed = await trx
    .deleteFrom('password_resets')
    .where('selector', '=', reset.selector)
    .where('token_hash', '=', reset.tokenHash)
    .where('expires_at', '>', reset.now)
    .returning('user_id')
    .executeTakeFirst();
  return claimed?.user_id;
}

export async function deleteUserResets(trx: Kysely<Database>, userId: number): Promise<void> {
  await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
}
