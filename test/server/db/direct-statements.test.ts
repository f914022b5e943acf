import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { precompiled } from '../../../src/server/db/precompiled.js';
import type { Database } from '../../../src/server/db/schema.js';
import { insertTestUser, type OpenTestDatabase, openTestDatabase } from '../../support/database.js';

// Decision 0124: on SQLite precompiled statements skip Kysely's driver. These tests run on SQLite whatever TEST_DB
// says, since PostgreSQL has no such path.
let database: OpenTestDatabase;
let annaId: number;
before(async () => {
  database = await openTestDatabase('sqlite');
  annaId = await insertTestUser(database.db, 'anna@example.com', 'Anna');
});
after(() => database.closeAndDrop());

const nameQuery = precompiled((db: Kysely<Database>, p: { id: number }) =>
  db.selectFrom('users').select('name').where('id', '=', p.id),
);
const renameQuery = precompiled((db: Kysely<Database>, p: { id: number; name: string }) =>
  db.updateTable('users').set({ name: p.name }).where('id', '=', p.id),
);

test('on SQLite a precompiled statement runs within the call, not after the promises of Kysely’s driver', async () => {
  const other = new SqliteDatabase(database.url.slice('sqlite:'.length), { readonly: true });
  try {
    const renaming = renameQuery(database.db, { id: annaId, name: 'Anna at once' });
    // Read on a connection of its own before the call's promise had a chance to settle.
    const seen = other.prepare('select name from users where id = ?').get(annaId);
    assert.deepEqual(seen, { name: 'Anna at once' });
    assert.deepEqual(await renaming, []);
    assert.deepEqual(await nameQuery(database.db, { id: annaId }), [{ name: 'Anna at once' }]);
  } finally {
    other.close();
  }
});

test('while a transaction is open, a statement outside it waits for it and never sees its uncommitted writes', async () => {
  const { db } = database;
  await renameQuery(db, { id: annaId, name: 'Anna' });
  let rollBack!: () => void;
  const rolledBack = new Error('roll back');
  const transaction = db.transaction().execute(async (trx) => {
    await renameQuery(trx, { id: annaId, name: 'Anna, not committed' });
    assert.deepEqual(await nameQuery(trx, { id: annaId }), [{ name: 'Anna, not committed' }]);
    await new Promise<void>((resolve) => (rollBack = resolve));
    throw rolledBack;
  });
  await nextTurn();
  // Another request reads while the transaction waits: on SQLite's one connection a statement run now would be
  // part of that transaction.
  let read: Array<{ name: string }> | undefined;
  const reading = nameQuery(db, { id: annaId }).then((rows) => (read = rows));
  await nextTurn();
  assert.equal(read, undefined, 'the read waits while the transaction is open');
  rollBack();
  await assert.rejects(transaction, rolledBack);
  await reading;
  assert.deepEqual(read, [{ name: 'Anna' }]);
});
