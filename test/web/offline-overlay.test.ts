import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Goal } from '../../src/common/contract/schemas.js';
import { inUserOrder, todaySections } from '../../src/web/goal-order.js';
import { type QueuedOp, withQueuedOps } from '../../src/web/offline/overlay.js';

const goal = (id: string, extra: Partial<Goal> = {}): Goal => ({
  id,
  name: `Goal ${id}`,
  unit: 'reps',
  daily: 50,
  days: 30,
  start: '2026-01-01 08:00:00',
  sets: {},
  ...extra,
});
const op = (kind: 'log' | 'remove', goalId: string, amount: number, date = '2026-01-10'): QueuedOp => ({
  user_id: 1,
  kind,
  entry_id: `${kind}-${amount}`,
  goal_id: goalId,
  date,
  amount,
});

test('queued logs are appended and queued removals take the last equal amount, in queue order', () => {
  const goals = [goal('1', { sets: { '2026-01-10': [5, 10, 5] } }), goal('2')];
  const shown = withQueuedOps(goals, [op('log', '1', 20), op('remove', '1', 5), op('log', '1', 5), op('log', '2', 3)]);
  assert.deepEqual(shown[0]!.sets, { '2026-01-10': [5, 10, 20, 5] });
  assert.deepEqual(shown[1]!.sets, { '2026-01-10': [3] });
  // The server's copy is not changed.
  assert.deepEqual(goals[0]!.sets, { '2026-01-10': [5, 10, 5] });
});

test('a removal that empties a date removes the date; untouched goals and unknown goals are left alone', () => {
  const goals = [goal('1', { sets: { '2026-01-10': [5] } }), goal('2')];
  const shown = withQueuedOps(goals, [op('remove', '1', 5), op('remove', '1', 7), op('log', '9', 1)]);
  assert.deepEqual(shown[0]!.sets, {});
  assert.equal(shown[1], goals[1]);
  assert.equal(withQueuedOps(goals, []), goals);
});

test('the user order puts placed goals first, the rest in creation order; Today leaves archived goals out', () => {
  const goals = [
    goal('1'),
    goal('2', { start: '2099-01-01 00:00:00' }),
    goal('3', { start: '2020-01-01 00:00:00', days: 5 }),
    goal('4'),
    goal('5'),
  ];
  const layout = { order: ['5', '3', '1'], archived: ['1'] };
  assert.deepEqual(
    inUserOrder(goals, layout).map((item) => item.id),
    ['5', '3', '1', '2', '4'],
  );
  assert.deepEqual(
    inUserOrder(goals, null).map((item) => item.id),
    ['1', '2', '3', '4', '5'],
  );
  const sections = todaySections(goals, layout, '2026-01-10');
  assert.deepEqual(
    Object.fromEntries(Object.entries(sections).map(([name, list]) => [name, list.map((item) => item.id)])),
    { running: ['5', '4'], upcoming: ['2'], finished: ['3'] },
  );
});
