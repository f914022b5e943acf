import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addDays,
  dayNumber,
  daysBetween,
  dayState,
  dayTotal,
  endDateKey,
  goalDateKeys,
  goalTotals,
  type GoalProgressInput,
  isWithinGoal,
  localDateKey,
  quickAmounts,
  usualAmount,
  streaks,
  weekdayIndex,
} from '../../src/common/progress.js';

const goal = (sets: Record<string, number[]>, extra: Partial<GoalProgressInput> = {}): GoalProgressInput => ({
  daily: 50,
  days: 10,
  start: '2025-03-25 08:30:00',
  sets,
  ...extra,
});

/** Runs `check` with the process in time zone `zone` (Node re-reads TZ when it is assigned), then restores it. */
function inTimeZone(zone: string, check: () => void): void {
  const saved = process.env.TZ;
  process.env.TZ = zone;
  try {
    check();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

test('localDateKey uses the local calendar date, not UTC', () => {
  // The same instants whose UTC date is 2025-01-05 (12:00 and 03:00 UTC) are other days east and west of UTC.
  inTimeZone('Pacific/Kiritimati', () => {
    assert.equal(localDateKey(new Date(Date.UTC(2025, 0, 5, 12, 0))), '2025-01-06', 'UTC+14');
    assert.equal(localDateKey(new Date(Date.UTC(2025, 11, 31, 10, 0))), '2026-01-01', 'new year arrives first');
  });
  inTimeZone('America/Los_Angeles', () => {
    assert.equal(localDateKey(new Date(Date.UTC(2025, 0, 5, 3, 0))), '2025-01-04', 'UTC-8');
    assert.equal(localDateKey(new Date(Date.UTC(2025, 2, 1, 7, 59))), '2025-02-28', 'back across a month end');
  });
});

test('date arithmetic crosses months, leap days and daylight-saving changes by whole days', () => {
  assert.equal(addDays('2024-02-28', 1), '2024-02-29');
  assert.equal(addDays('2025-02-28', 1), '2025-03-01');
  assert.equal(addDays('2025-03-29', 2), '2025-03-31');
  assert.equal(addDays('2025-01-01', -1), '2024-12-31');
  assert.equal(daysBetween('2025-03-25', '2025-04-03'), 9);
  assert.equal(daysBetween('2025-04-03', '2025-03-25'), -9);
  assert.equal(weekdayIndex('2025-03-24'), 0, 'a Monday');
  assert.equal(weekdayIndex('2025-03-30'), 6, 'a Sunday');
});

test('the goal runs `days` calendar days from the date of its start', () => {
  const g = goal({});
  assert.equal(endDateKey(g), '2025-04-03');
  assert.deepEqual(goalDateKeys(g).slice(0, 3), ['2025-03-25', '2025-03-26', '2025-03-27']);
  assert.equal(goalDateKeys(g).length, 10);
  assert.equal(isWithinGoal(g, '2025-03-24'), false);
  assert.equal(isWithinGoal(g, '2025-03-25'), true);
  assert.equal(isWithinGoal(g, '2025-04-03'), true);
  assert.equal(isWithinGoal(g, '2025-04-04'), false);
});

test('day N of days: 0 before the start, 1 on the start date, more than days when over', () => {
  const g = goal({});
  assert.equal(dayNumber(g, '2025-03-24'), 0);
  assert.equal(dayNumber(g, '2025-03-25'), 1);
  assert.equal(dayNumber(g, '2025-04-03'), 10);
  assert.equal(dayNumber(g, '2025-04-04'), 11);
});

test("today's total sums the day's amounts without floating-point noise", () => {
  const sets = { '2025-03-25': [0.1, 0.2], '2025-03-26': [10, 25, -5] };
  assert.equal(dayTotal(sets, '2025-03-25'), 0.3);
  assert.equal(dayTotal(sets, '2025-03-26'), 30);
  assert.equal(dayTotal(sets, '2025-03-27'), 0);
});

test('the total counts only the goal days and is compared with daily × days', () => {
  const g = goal({ '2025-03-24': [100], '2025-03-25': [20, 30], '2025-04-03': [10], '2025-04-04': [99] });
  assert.deepEqual(goalTotals(g), { done: 60, target: 500 });
  assert.deepEqual(goalTotals(goal({}, { daily: 0.5, days: 3 })), { done: 0, target: 1.5 });
});

test('heatmap states: met, partly, missed (day over), future (today until something is logged)', () => {
  const g = goal({ '2025-03-25': [50], '2025-03-26': [60], '2025-03-27': [10], '2025-03-29': [5] });
  const today = '2025-03-29';
  assert.equal(dayState(g, '2025-03-25', today), 'met');
  assert.equal(dayState(g, '2025-03-26', today), 'met', 'more than the target is met');
  assert.equal(dayState(g, '2025-03-27', today), 'partly');
  assert.equal(dayState(g, '2025-03-28', today), 'missed');
  assert.equal(dayState(g, '2025-03-29', today), 'partly');
  assert.equal(dayState(g, '2025-03-30', today), 'future');
  assert.equal(dayState(goal({}), '2025-03-29', today), 'future', 'an empty today is still to come');
});

test('streaks: the current one ends today or, while today is open, yesterday; the best is the longest run', () => {
  const sets = {
    '2025-03-25': [50],
    '2025-03-26': [50],
    '2025-03-27': [50],
    '2025-03-28': [20],
    '2025-03-29': [50],
    '2025-03-30': [50],
  };
  assert.deepEqual(streaks(goal(sets), '2025-03-31'), { current: 2, best: 3 }, 'today (31st) still open');
  assert.deepEqual(streaks(goal({ ...sets, '2025-03-31': [50] }), '2025-03-31'), { current: 3, best: 3 });
  assert.deepEqual(streaks(goal(sets), '2025-04-01'), { current: 0, best: 3 }, 'the 31st was missed');
  assert.deepEqual(
    streaks(goal({ ...sets, '2025-04-02': [50] }), '2025-03-27'),
    { current: 3, best: 3 },
    'future days never count',
  );
  assert.deepEqual(streaks(goal({}), '2025-03-20'), { current: 0, best: 0 }, 'before the start');
  assert.deepEqual(streaks(goal(sets), '2025-05-01'), { current: 0, best: 3 }, 'after the end');
  assert.deepEqual(
    streaks(goal({ '2025-04-03': [50] }), '2025-04-04'),
    { current: 1, best: 1 },
    'the day after the end',
  );
  assert.deepEqual(
    streaks(goal({ '2025-04-03': [50] }), '2025-05-01'),
    { current: 0, best: 1 },
    'a long finished goal has no current streak',
  );
});

test('quick amounts: up to three round steps up to half the target, then the target', () => {
  assert.deepEqual(quickAmounts(50), [5, 10, 25, 50]);
  assert.deepEqual(quickAmounts(10), [1, 5, 10]);
  assert.deepEqual(quickAmounts(8), [1, 8]);
  assert.deepEqual(quickAmounts(1), [1]);
  assert.deepEqual(quickAmounts(0.5), [0.5]);
  assert.deepEqual(quickAmounts(10000), [1000, 2500, 5000, 10000]);
  assert.deepEqual(quickAmounts(2), [1, 2]);
});

test('usual amount: the last positive amount logged, else the largest round step below the target', () => {
  assert.equal(usualAmount({ daily: 50, sets: {} }), 25);
  assert.equal(usualAmount({ daily: 10000, sets: {} }), 5000);
  assert.equal(usualAmount({ daily: 8, sets: {} }), 1);
  assert.equal(usualAmount({ daily: 1, sets: {} }), 1);
  assert.equal(usualAmount({ daily: 0.5, sets: {} }), 0.5);
  // The latest date wins, whatever order the keys come in; a correction (negative) is skipped.
  assert.equal(usualAmount({ daily: 50, sets: { '2026-01-12': [12, -3], '2026-01-02': [40] } }), 12);
  assert.equal(usualAmount({ daily: 50, sets: { '2026-01-02': [40], '2026-01-12': [-3] } }), 40);
});
