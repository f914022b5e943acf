import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { GOAL_LIMITS } from '../../../src/common/goal.js';
import { logEntry } from '../../../src/server/goals/entries-store.js';
import { amountChars, setsJsonBytes, setsSize } from '../../../src/server/goals/serialize.js';
import { recordedGoal } from '../../support/recorded-goal.js';

// PostgreSQL only (decision 0134): a new amount is one statement, its own transaction; SQLite runs in process.

/** A goal on PostgreSQL with its statements recorded, and a log of it. */
async function goalOnPostgres(t: TestContext, sets: Record<string, number[]> = {}) {
  const { db, statements, userId, goalId, storedSets } = await recordedGoal(t, sets, 8);
  const log = (date: string, amount: number, entryId?: string) =>
    logEntry(db, userId, goalId, { date, amount, entryId }, 2);
  return { statements, log, stored: storedSets };
}

test('on PostgreSQL a new amount is logged in one statement, also on a kept empty date', async (t) => {
  const { statements, log, stored } = await goalOnPostgres(t, { '2026-01-15': [5], '2026-01-16': [] });
  statements.length = 0;
  assert.deepEqual(await log('2026-01-15', 7), [5, 7]);
  assert.deepEqual(await log('2026-01-16', 2.5, 'entry-1'), [2.5]);
  assert.deepEqual(await log('2026-01-17', -1), [-1]);
  assert.equal(statements.length, 3, `one statement a log:\n${statements.join('\n')}`);
  assert.deepEqual(await stored(), { '2026-01-15': [5, 7], '2026-01-16': [2.5], '2026-01-17': [-1] });

  // A known entry_id is decided by the transaction: the same log is a replay, answered and not added again.
  statements.length = 0;
  assert.deepEqual(await log('2026-01-16', 2.5, 'entry-1'), [2.5]);
  assert.ok(statements.length > 1, 'the replay went on to the transaction');
  assert.deepEqual(await stored(), { '2026-01-15': [5, 7], '2026-01-16': [2.5], '2026-01-17': [-1] });
});

test('on PostgreSQL a goal near its size cap is logged by the transaction, which refuses exactly at the cap', async (t) => {
  // 52 dates of 250 amounts of 10 characters each: 130,781 of the 131,072 bytes.
  const big = 1234567.5;
  const sets: Record<string, number[]> = {};
  for (let day = 0; day < 52; day++) {
    sets[new Date(Date.UTC(2010, 0, 1 + day)).toISOString().slice(0, 10)] = Array.from({ length: 250 }, () => big);
  }
  const { statements, log, stored } = await goalOnPostgres(t, sets);
  let viaTransaction = 0;
  for (;;) {
    statements.length = 0;
    try {
      await log('2010-01-01', big);
    } catch (error) {
      assert.equal((error as { code?: string }).code, 'goal_too_large');
      break;
    }
    if (statements.length > 1) viaTransaction++;
  }
  // The one statement keeps 15 bytes of room (a new date assumed); the transaction used the rest, to the byte.
  const bytes = setsJsonBytes(setsSize(await stored()));
  assert.ok(
    bytes <= GOAL_LIMITS.setsJsonMaxBytes && bytes + amountChars(big) > GOAL_LIMITS.setsJsonMaxBytes,
    `${bytes}`,
  );
  assert.ok(viaTransaction > 0, 'the last amounts before the cap went through the transaction');
});

test('on PostgreSQL many logs at once, first ones of new dates among them, keep the counters exact', async (t) => {
  const { log, stored } = await goalOnPostgres(t, { '2026-02-01': [] });
  const dates = ['2026-02-01', '2026-02-02', '2026-02-03'];
  const answers = await Promise.all(
    Array.from({ length: 90 }, (_, i) => log(dates[i % dates.length]!, 1 + (i % 4), `together-${i}`)),
  );
  assert.ok(answers.every((amounts) => amounts !== undefined && amounts.length > 0));
  const sets = await stored();
  assert.deepEqual(
    dates.map((date) => sets[date]?.length),
    [30, 30, 30],
  );
});
