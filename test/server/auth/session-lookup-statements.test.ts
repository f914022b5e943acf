import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findSessionUser, insertSession } from '../../../src/server/auth/sessions-store.js';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { migrateToLatest } from '../../../src/server/db/migrate.js';
import { createTestDatabase } from '../../support/database.js';
import { loggedDatabase } from '../../support/logged-database.js';

const NOW = 1_000_000;

/** A fresh database of `kind` through a Kysely that records the SQL of every statement it sends. */
async function freshLoggedDatabase(kind: 'sqlite' | 'postgres', t: { after(fn: () => Promise<void>): void }) {
  const database = await createTestDatabase(kind);
  const { db, statements, close } = loggedDatabase(parseDatabaseUrl(database.url));
  t.after(async () => {
    await close();
    await database.drop();
  });
  await migrateToLatest(db, kind);
  return { db, statements };
}

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`on ${kind} concurrent session lookups each find their own user; on PostgreSQL they share one query`, async (t) => {
    const { db, statements } = await freshLoggedDatabase(kind, t);
    const user = async (name: string, credentialVersion = 0) => {
      const { id } = await db
        .insertInto('users')
        .values({ email: `${name}@example.com`, password_hash: 'x', name, locale: 'pl', created_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.updateTable('users').set({ credential_version: credentialVersion }).where('id', '=', id).execute();
      return id;
    };
    const session = (tokenHash: string, userId: number, expiresAt: number, credentialVersion = 0) =>
      insertSession(db, { tokenHash, userId, credentialVersion, now: 0, expiresAt });
    const anna = await user('anna');
    const ben = await user('ben', 1);
    const annaSession = await session('a'.repeat(64), anna, NOW + 1);
    const benSession = await session('b'.repeat(64), ben, NOW + 1, 1);
    await session('c'.repeat(64), anna, NOW); // expired at NOW
    await session('d'.repeat(64), ben, NOW + 1, 0); // issued before Ben's password change

    statements.length = 0;
    const found = await Promise.all(
      ['a', 'b', 'a', 'c', 'd', 'e'].map((hex) => findSessionUser(db, hex.repeat(64), NOW)),
    );
    // SQLite answers in process, where sharing would cost memory and save little (decision 0123).
    const expected = kind === 'postgres' ? 1 : 6;
    assert.equal(statements.length, expected, `${expected} queries for six lookups: ${statements.join('\n')}`);
    const annaUser = { id: anna, email: 'anna@example.com', name: 'anna', locale: 'pl', sessionId: annaSession };
    const benUser = { id: ben, email: 'ben@example.com', name: 'ben', locale: 'pl', sessionId: benSession };
    assert.deepEqual(found, [
      { ...annaUser, credentialVersion: 0, goalsVersion: 0 },
      { ...benUser, credentialVersion: 1, goalsVersion: 0 },
      { ...annaUser, credentialVersion: 0, goalsVersion: 0 },
      undefined,
      undefined,
      undefined,
    ]);

    // Inside a transaction the lookup is the transaction's own query, never one shared with other requests.
    statements.length = 0;
    const inTransaction = await db.transaction().execute((trx) => findSessionUser(trx, 'a'.repeat(64), NOW));
    assert.equal(inTransaction?.id, anna);
    assert.equal(statements.length, 3, `begin, the lookup, commit: ${statements.join('\n')}`);
  });
}
