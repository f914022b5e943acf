import assert from 'node:assert/strict';
import { type Kysely, type Migration, Migrator } from 'kysely';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { parseDatabaseUrl } from '../../src/server/config.js';
import { migrations } from '../../src/server/db/migrations/index.js';
import { openDatabase } from '../../src/server/db/open.js';
import { PASSWORD } from './app.js';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from './database.js';

/** The user an older database holds: log in with OLD_USER_EMAIL and the tests' PASSWORD. */
export const OLD_USER_EMAIL = 'old@example.com';

/**
 * A fresh test database as an older version of Steady left it: the released migrations named before `firstLeftOut`
 * (e.g. '0006') applied, and one user. The test stores rows in the old form through `db` (typed `any`: the tables
 * are not today's), closes it, then starts the app on `database`, which applies the rest. `kind` defaults to TEST_DB's.
 */
export async function olderDatabase(
  firstLeftOut: string,
  kind: 'sqlite' | 'postgres' = testDatabaseKind(),
): Promise<{
  database: TestDatabase;
  db: Kysely<any>;
  userId: number;
  close(): Promise<void>;
}> {
  const database = await createTestDatabase(kind);
  const config = parseDatabaseUrl(database.url);
  const handle = await openDatabase(config, { patient: true });
  const db = handle.db as Kysely<any>;
  const older = Object.entries(migrations).filter(([name]) => name < firstLeftOut);
  const migrator = new Migrator({
    db,
    provider: {
      async getMigrations() {
        const bound: Record<string, Migration> = {};
        for (const [name, migration] of older) bound[name] = { up: (db) => migration.up(db, config.kind) };
        return bound;
      },
    },
  });
  const { error } = await migrator.migrateToLatest();
  assert.equal(error, undefined);
  const { id: userId } = await db
    .insertInto('users')
    .values({ email: OLD_USER_EMAIL, password_hash: await hashPassword(PASSWORD), created_at: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { database, db, userId, close: () => handle.close() };
}
