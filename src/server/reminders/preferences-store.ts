import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The user's IANA time zone, or null when never set. */
export async function findTimezone(db: Kysely<Database>, userId: number): Promise<string | null> {
  const row = await db.selectFrom('preferences').select('timezone').where('user_id', '=', userId).executeTakeFirst();
  return row?.timezone ?? null;
}

export async function saveTimezone(db: Kysely<Database>, userId: number, timezone: string, now: number): Promise<void> {
  await db
    .insertInto('preferences')
    .values({ user_id: userId, timezone, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ timezone, updated_at: now }))
    .execute();
}
