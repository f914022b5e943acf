import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface SessionUser {
  sessionId: number;
  userId: number;
  email: string;
  name: string;
  locale: string;
}

export async function insertSession(
  db: Kysely<Database>,
  row: { tokenHash: string; userId: number; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ token_hash: row.tokenHash, user_id: row.userId, created_at: row.now, expires_at: row.expiresAt })
    .execute();
  // Sweeping the user's own expired rows here keeps the table small without a background job.
  await db.deleteFrom('sessions').where('user_id', '=', row.userId).where('expires_at', '<=', row.now).execute();
}

export async function findSessionUser(db: Kysely<Database>, tokenHash: string, now: number): Promise<SessionUser | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id as sessionId', 'users.id as userId', 'users.email', 'users.name', 'users.locale'])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteSessionByHash(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

export async function insertRememberToken(
  db: Kysely<Database>,
  row: { selector: string; validatorHash: string; userId: number; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('remember_tokens')
    .values({
      selector: row.selector,
      validator_hash: row.validatorHash,
      user_id: row.userId,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
  await db.deleteFrom('remember_tokens').where('user_id', '=', row.userId).where('expires_at', '<=', row.now).execute();
}

export async function findRememberToken(db: Kysely<Database>, selector: string) {
  return db
    .selectFrom('remember_tokens')
    .select(['id', 'validator_hash', 'user_id', 'expires_at'])
    .where('selector', '=', selector)
    .executeTakeFirst();
}

/** Deletes one remember-me token; false when another request already consumed it. */
export async function deleteRememberToken(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('remember_tokens').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deleteRememberTokenBySelector(db: Kysely<Database>, selector: string): Promise<void> {
  await db.deleteFrom('remember_tokens').where('selector', '=', selector).execute();
}

/** Ends every session and remember-me token of a user (password change, reset, suspected token theft). */
export async function deleteAllUserLogins(db: Kysely<Database>, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('remember_tokens').where('user_id', '=', userId).execute();
}
