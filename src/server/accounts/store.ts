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
    .values({ email: user.email, password_hash: user.passwordHash, name: user.name, locale: user.locale, created_at: user.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(
  db: Kysely<Database>,
  id: number,
  changes: { name?: string; locale?: string; passwordHash?: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.locale !== undefined && { locale: changes.locale }),
      ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
    })
    .where('id', '=', id)
    .execute();
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listUsers(db: Kysely<Database>) {
  return db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).orderBy('id').execute();
}
