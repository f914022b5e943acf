import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GoalSets } from '../../../src/common/goal.js';
import { updateGoal } from '../../../src/server/goals/store.js';
import { recordedGoal } from '../../support/recorded-goal.js';

/** Of `dates` days from 2026-01-01, each that `amountsOn(day)` gives amounts for, with those amounts. */
function setsOf(dates: number, amountsOn: (day: number) => number[] | undefined): GoalSets {
  const sets: GoalSets = {};
  for (let day = 0; day < dates; day++) {
    const amounts = amountsOn(day);
    if (amounts) sets[new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10)] = amounts;
  }
  return sets;
}

// PostgreSQL only (decision 0122): SQLite runs in process, where a statement costs no round trip.
test('on PostgreSQL a PATCH of sets sends its writes as one statement, however many rows change', async (t) => {
  const { db, statements, userId, goalId, storedSets } = await recordedGoal(
    t,
    setsOf(90, (day) => [day, 1.5, 2]),
  );

  const statementsOf = async (sets: GoalSets) => {
    statements.length = 0;
    assert.equal(await updateGoal(db, userId, goalId, { sets }, 2), true);
    const sent = statements.length;
    assert.deepEqual(await storedSets(), sets, 'the goal holds exactly the sets sent');
    return sent;
  };
  // One amount changed in place.
  const small = await statementsOf(setsOf(90, (day) => (day === 0 ? [0.1, 1.5, 2] : [day, 1.5, 2])));
  // Of the 90 dates: 180 amounts changed in place (60 dates), 20 dates rewritten with more amounts, 10 dates gone;
  // then 30 new dates, one kept empty.
  const large = await statementsOf(
    setsOf(120, (day) => {
      if (day < 60) return [day + 0.25, 1.25, 3];
      if (day < 80) return [day, 1.5, 2, 4, 5];
      if (day < 90) return undefined;
      return day === 90 ? [] : [day / 3];
    }),
  );
  assert.equal(large, small, `as many statements for hundreds of rows as for one: ${statements.join('\n')}`);
  // begin, the goal row (its lock), its live entries, the writes with the list version, commit.
  assert.equal(large, 5);
});
