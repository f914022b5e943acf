import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goalDateKey, goalDays } from '../../../src/server/reminders/goal-day-store.js';
import { createTestApp } from '../../support/app.js';

test('the days of many goals read in parts are the days read one by one; a goal that is gone has none', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const ben = await steady.register('ben@example.com');
  const ids: number[] = [];
  for (const [client, name, sets] of [
    [anna, 'Walk', { '2026-01-15': [1000, 2500.5], '2026-01-16': [300] }],
    [anna, 'Read', { '2026-01-15': [] }],
    [ben, 'Swim', { '2026-01-14': [20], '2026-01-15': [0.1, 0.2] }],
    [ben, 'Stretch', {}],
    [anna, 'Run', { '2026-01-16': [-3, 5] }],
  ] as const) {
    const created = await client.post('/api/goals', {
      name,
      unit: 'x',
      daily: 10,
      days: 30,
      start: '2026-01-10',
      sets,
    });
    ids.push(Number(created.body.id));
  }
  // The last goal is deleted: asked about, it has no day.
  const gone = ids.pop()!;
  assert.equal((await anna.delete(`/api/goals/${gone}`)).status, 200);
  const wanted = [...ids, gone].flatMap((goalId) => ['2026-01-15', '2026-01-16'].map((date) => ({ goalId, date })));

  const oneByOne = new Map();
  for (const each of wanted) {
    const key = goalDateKey(each.goalId, each.date);
    const day = (await goalDays(steady.deps.db, [each])).get(key);
    if (day) oneByOne.set(key, day);
  }
  assert.equal(oneByOne.size, 8, 'four goals on two dates');
  assert.deepEqual(await goalDays(steady.deps.db, wanted, 2), oneByOne);
  assert.deepEqual(await goalDays(steady.deps.db, wanted), oneByOne);
  const walk = oneByOne.get(goalDateKey(ids[0]!, '2026-01-15'));
  assert.deepEqual(walk, { name: 'Walk', unit: 'x', daily: 10, start: '2026-01-10 00:00:00', days: 30, total: 3500.5 });
  assert.equal(oneByOne.get(goalDateKey(ids[1]!, '2026-01-15')).total, 0, 'a date kept as []');
  assert.equal(oneByOne.get(goalDateKey(ids[2]!, '2026-01-15')).total, 0.1 + 0.2);
});
