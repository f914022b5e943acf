import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { precompiled } from '../../../src/server/db/precompiled.js';
import type { Database } from '../../../src/server/db/schema.js';
import { insertTestUser, type OpenTestDatabase, openTestDatabase } from '../../support/database.js';

let database: OpenTestDatabase;
let ids: { anna: number; ben: number };
before(async () => {
  database = await openTestDatabase();
  const insert = (email: string) => insertTestUser(database.db, email);
  ids = { anna: await insert('anna@example.com'), ben: await insert('ben@example.com') };
});
after(() => database.closeAndDrop());

test('values are bound by name, whatever the order of the keys or of their first use in the SQL', async () => {
  // The SQL uses `id` before `email`; the objects below name them the other way round.
  const userQuery = precompiled((db: Kysely<Database>, p: { email: string; id: number }) =>
    db.selectFrom('users').select(['id', 'email']).where('id', '=', p.id).where('email', '=', p.email),
  );
  const { db } = database;
  assert.deepEqual(await userQuery(db, { email: 'ben@example.com', id: ids.ben }), [
    { id: ids.ben, email: 'ben@example.com' },
  ]);
  assert.deepEqual(await userQuery(db, { email: 'anna@example.com', id: ids.anna }), [
    { id: ids.anna, email: 'anna@example.com' },
  ]);
  assert.deepEqual(await userQuery(db, { email: 'anna@example.com', id: ids.ben }), []);
});

test('a value in the built query that is not one of the placeholders is refused, not baked in', async () => {
  const fixedQuery = precompiled((db: Kysely<Database>, p: { email: string }) =>
    db.selectFrom('users').select('id').where('email', '=', p.email).where('locale', '=', 'en'),
  );
  await assert.rejects(fixedQuery(database.db, { email: 'anna@example.com' }), {
    message: 'precompiled query has a value that is not a parameter: en',
  });
});

test('a transaction runs the query on its own connection and shares the compiled query with its database', async () => {
  let builds = 0;
  const nameQuery = precompiled((db: Kysely<Database>, p: { id: number }) => {
    builds += 1;
    return db.selectFrom('users').select('name').where('id', '=', p.id);
  });
  const { db } = database;
  assert.deepEqual(await nameQuery(db, { id: ids.anna }), [{ name: 'anna@example.com' }]);
  const rolledBack = new Error('roll back');
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ name: 'Anna in a transaction' }).where('id', '=', ids.anna).execute();
      // The transaction's own write is visible only on its connection (on PostgreSQL another one would not see it).
      assert.deepEqual(await nameQuery(trx, { id: ids.anna }), [{ name: 'Anna in a transaction' }]);
      throw rolledBack;
    }),
    rolledBack,
  );
  assert.deepEqual(await nameQuery(db, { id: ids.anna }), [{ name: 'anna@example.com' }]);
  assert.equal(builds, 1, 'built and compiled once for the database and its transactions');
});

test('a database with plugins is refused: they would change the compiled SQL', async () => {
  const { CamelCasePlugin } = await import('kysely');
  const nameQuery = precompiled((db: Kysely<Database>, p: { id: number }) =>
    db.selectFrom('users').select('name').where('id', '=', p.id),
  );
  await assert.rejects(nameQuery(database.db.withPlugin(new CamelCasePlugin()), { id: ids.anna }), {
    message: 'precompiled queries do not take Kysely plugins',
  });
});
