import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The caller's goals with everything stored about them, oldest first. */
export async function listGoalsForExport(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('goals')
    .select(['id', 'name', 'unit', 'daily', 'days', 'start', 'sets_json', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/**
 * Removes every row that belongs to the user, in one transaction: goals, logins, reset links, the invites they
 * made (pending or not), their throttle buckets and the user row. Invites they registered with stay in their
 * creators' lists as used, with `used_by` emptied (decision 0072). The deletes are spelled out rather than left
 * to ON DELETE CASCADE, so the result does not depend on SQLite's foreign_keys pragma.
 */
export async function deleteUserEverywhere(
  db: Kysely<Database>,
  user: { id: number; throttleKeys: string[] },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // The first write takes SQLite's write lock / the row lock on PostgreSQL: a parallel login or goal write waits.
    await trx.updateTable('users').set({ name: '' }).where('id', '=', user.id).execute();
    await trx.deleteFrom('goals').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('remember_tokens').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('invites').where('created_by', '=', user.id).execute();
    await trx.updateTable('invites').set({ used_by: null }).where('used_by', '=', user.id).execute();
    if (user.throttleKeys.length > 0) await trx.deleteFrom('throttle_buckets').where('key', 'in', user.throttleKeys).execute();
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
  });
}
