import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { inWriteTransaction } from '../../../src/server/db/shared-commits-store.js';
import { logEntry } from '../../../src/server/goals/entries-store.js';
import { insertTestUser } from '../../support/database.js';
import { recordedGoal } from '../../support/recorded-goal.js';

// SQLite only (decision 0208): the writes of requests arriving together share one transaction and its COMMIT.

const commits = (statements: string[]) => statements.filter((statement) => /^commit\b/i.test(statement)).length;

test('on SQLite amounts logged together share one commit, and each is stored and answered', async (t) => {
  const { db, statements, userId, goalId, storedSets } = await recordedGoal(t, {}, undefined, 'sqlite');
  statements.length = 0;
  const dates = ['2026-01-15', '2026-01-16', '2026-01-17'];
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      logEntry(db, userId, goalId, { date: dates[i % 3]!, amount: i + 1, entryId: undefined }, 2),
    ),
  );
  assert.equal(commits(statements), 1, `one commit for the 30 logs:\n${statements.join('\n')}`);
  // Each answer holds the date's amounts up to its own, in the order the logs came.
  answers.forEach((amounts, i) =>
    assert.deepEqual(
      amounts,
      Array.from({ length: Math.floor(i / 3) + 1 }, (_, k) => (i % 3) + 1 + 3 * k),
    ),
  );
  const stored = await storedSets();
  assert.deepEqual(Object.keys(stored), dates);
  assert.equal(Object.values(stored).flat().length, 30);
});

test('on SQLite a refused write undoes only its own writes in the shared transaction', async (t) => {
  const { db, statements } = await recordedGoal(t, {}, undefined, 'sqlite');
  statements.length = 0;
  const outcomes = await Promise.allSettled([
    inWriteTransaction(db, (trx) => insertTestUser(trx, 'first@example.com')),
    inWriteTransaction(db, async (trx) => {
      await insertTestUser(trx, 'refused@example.com');
      throw new Error('refused');
    }),
    inWriteTransaction(db, (trx) => insertTestUser(trx, 'third@example.com')),
  ]);
  assert.deepEqual(
    outcomes.map((outcome) => outcome.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.equal((outcomes[1] as PromiseRejectedResult).reason.message, 'refused');
  assert.equal(commits(statements), 1);
  const emails = (await db.selectFrom('users').select('email').orderBy('id').execute()).map((row) => row.email);
  assert.deepEqual(emails, ['anna@example.com', 'first@example.com', 'third@example.com']);
});

test('on SQLite a shared transaction that fails as a whole answers no write of it as done, and stores none', async (t) => {
  const { db } = await recordedGoal(t, {}, undefined, 'sqlite');
  const outcomes = await Promise.allSettled([
    inWriteTransaction(db, (trx) => insertTestUser(trx, 'first@example.com')),
    // As SQLite does on a full disk: the whole transaction ends, the savepoint with it.
    inWriteTransaction(db, async (trx) => {
      await sql`rollback`.execute(trx);
      throw new Error('the disk is full');
    }),
    inWriteTransaction(db, (trx) => insertTestUser(trx, 'third@example.com')),
  ]);
  assert.deepEqual(
    outcomes.map((outcome) => outcome.status),
    ['rejected', 'rejected', 'rejected'],
  );
  for (const outcome of outcomes) assert.equal((outcome as PromiseRejectedResult).reason.message, 'the disk is full');
  const emails = (await db.selectFrom('users').select('email').execute()).map((row) => row.email);
  assert.deepEqual(emails, ['anna@example.com']);
  // The connection is usable again.
  await inWriteTransaction(db, (trx) => insertTestUser(trx, 'later@example.com'));
  assert.equal((await db.selectFrom('users').select('email').execute()).length, 2);
});
