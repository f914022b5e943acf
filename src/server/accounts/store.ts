import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';

export async function findUserByEmail(db: Kysely<Database>, normalizedEmail: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalizedEmail).executeTakeFirst();
}

export async function findUserById(db: Kysely<Database>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts a user; a taken e-mail surfaces as the engine's unique violation (see `isUniqueViolation`). */
export async function insertUser(
  db: Kysely<Database>,
  user: { email: string; passwordHash: string; name: string; locale: string; now: number },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      email: user.email,
      password_hash: user.passwordHash,
      name: user.name,
      locale: user.locale,
      created_at: user.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Profile fields only: a new password goes through `bumpCredentialVersion`, which also ends older logins. */
export async function updateUser(
  db: Kysely<Database>,
  id: number,
  changes: { name?: string; locale?: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.locale !== undefined && { locale: changes.locale }),
    })
    .where('id', '=', id)
    .execute();
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listUsers(db: Kysely<Database>) {
  return db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).orderBy('id').execute();
}

/**
 * Increases the user's credential version, which ends every session and remember-me token issued before, and
 * optionally sets a new password hash in the same statement. With `expectedVersion` it only happens while the
 * version is still that one (a compare-and-swap for password changes). Returns the new version, or undefined
 * when nothing was changed. Password change, reset, "log out everywhere" and account deletion call this in their
 * transaction (docs/decisions/0060-credential-version.md).
 */
export async function bumpCredentialVersion(
  db: Kysely<Database>,
  userId: number,
  options: { passwordHash?: string; expectedVersion?: number } = {},
): Promise<number | undefined> {
  let update = db
    .updateTable('users')
    .set((eb) => ({
      credential_version: eb('credential_version', '+', 1),
      ...(options.passwordHash !== undefined && { password_hash: options.passwordHash }),
    }))
    .where('id', '=', userId);
  if (options.expectedVersion !== undefined) update = update.where('credential_version', '=', options.expectedVersion);
  const row = await update.returning('credential_version').executeTakeFirst();
  return row?.credential_version;
}
