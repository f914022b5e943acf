import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { GoalSets } from '../../src/common/goal.js';
import { parseDatabaseUrl } from '../../src/server/config.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { openDatabase } from '../../src/server/db/open.js';
import { entriesSets, setsSize } from '../../src/server/goals/serialize.js';
import { insertGoal } from '../../src/server/goals/store.js';
import { createTestDatabase, insertTestUser } from './database.js';

/**
 * For tests that count a code path's statements (on PostgreSQL unless `kind` says otherwise): a fresh database opened
 * as the app opens it (named statements, rows as arrays where asked for; on SQLite direct statements, which are not
 * recorded, and shared commits) with the SQL of every statement sent through Kysely recorded in `statements`, one
 * user and one goal holding `sets`. Closed and dropped when the test ends.
 */
export async function recordedGoal(
  t: TestContext,
  sets: GoalSets = {},
  poolSize?: number,
  kind: 'sqlite' | 'postgres' = 'postgres',
) {
  const database = await createTestDatabase(kind);
  const statements: string[] = [];
  const handle = await openDatabase(parseDatabaseUrl(database.url, poolSize), {
    logStatements: (sql) => void statements.push(sql),
  });
  t.after(async () => {
    await handle.close();
    await database.drop();
  });
  const { db } = handle;
  await migrateToLatest(db, kind);
  const userId = await insertTestUser(db, 'anna@example.com');
  const goal = { name: 'Push-ups', unit: 'reps', daily: 50, days: 90, start: '2026-01-01' };
  const { id: goalId } = await insertGoal(db, userId, { ...goal, sets }, 1);

  /** The goal's `sets` as stored, after checking that its size counters are exactly those of these entries. */
  const storedSets = async (): Promise<GoalSets> => {
    const rows = await db
      .selectFrom('goal_entries')
      .select(['goal_id', 'date', 'amount'])
      .where('goal_id', '=', goalId)
      .where('removed_at', 'is', null)
      .orderBy('date')
      .orderBy('id')
      .execute();
    const counters = await db
      .selectFrom('goals')
      .select(['sets_dates', 'sets_amount_chars'])
      .where('id', '=', goalId)
      .executeTakeFirstOrThrow();
    const stored = entriesSets(rows);
    assert.deepEqual(
      { dates: counters.sets_dates, amountChars: counters.sets_amount_chars },
      setsSize(stored),
      'the size counters are those of the stored entries',
    );
    return stored;
  };
  return { db, statements, userId, goalId, storedSets };
}
