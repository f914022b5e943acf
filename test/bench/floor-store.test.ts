/**
 * The bench's floor (bench/floor-store.ts, decisions 0118 and 0120) is a yardstick only while it does the app's
 * work: its writes must leave the database as the app's own requests would, or its figures mean nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type FloorStore, openFloorStore } from '../../bench/floor-store.js';
import { setsSize } from '../../src/server/goals/serialize.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { TestClient } from '../support/client.js';

let steady: TestApp;
let floor: FloorStore;
let anna: TestClient;
let annaId: number;
before(async () => {
  steady = await createTestApp();
  anna = await steady.register('anna@example.com');
  annaId = ((await anna.get('/api/me')).body as { id: number }).id;
  floor = openFloorStore(steady.deps.config.database);
});
after(async () => {
  await floor.close();
  await steady.close();
});

const setsOfList = async (client: TestClient) =>
  ((await client.get('/api/goals')).body as Array<{ id: string; sets: unknown }>).map((goal) => goal.sets);

test("the floor's PATCH and log leave the goal as the app's list then shows it, after the list was cached", async () => {
  const created = await anna.post('/api/goals', {
    name: 'Run',
    unit: 'km',
    daily: 5,
    days: 30,
    start: '2016-01-01',
    sets: { '2016-01-01': [1, 2, 3], '2016-01-02': [4], '2016-01-03': [5, 6], '2016-01-04': [] },
  });
  const goalId = Number((created.body as { id: string }).id);
  await setsOfList(anna);

  // In place (same count), rewritten (another count), removed, kept empty, added; an odd double stays exact.
  const sets = {
    '2016-01-01': [1, 2.5, 0.30000000000000004],
    '2016-01-02': [4, 7],
    '2016-01-04': [],
    '2016-01-05': [9],
  };
  assert.equal(await floor.replaceSets(annaId, goalId, sets), true);
  assert.deepEqual(await setsOfList(anna), [sets]);
  assert.equal(await floor.replaceSets(annaId + 1, goalId, {}), false, "another user's goal is not found");

  assert.deepEqual(await floor.logAmount(annaId, goalId, '2016-01-02', 8), [4, 7, 8]);
  const logged = { ...sets, '2016-01-02': [4, 7, 8] };
  assert.deepEqual(await setsOfList(anna), [logged]);

  // The goal's size counters, from which the app checks its size cap, are what the app would have written.
  const counters = await steady.deps.db
    .selectFrom('goals')
    .select(['sets_dates', 'sets_amount_chars'])
    .where('id', '=', goalId)
    .executeTakeFirstOrThrow();
  const size = setsSize(logged);
  assert.deepEqual(counters, { sets_dates: size.dates, sets_amount_chars: size.amountChars });

  // The app's PATCH of the same sets then changes nothing, and its export reads the same rows.
  assert.equal((await anna.patch(`/api/goals/${goalId}`, { sets: logged })).status, 200);
  assert.deepEqual(await setsOfList(anna), [logged]);
  const export_ = (await anna.get('/api/export')).body as { goals: Array<{ sets: unknown }> };
  assert.deepEqual(
    export_.goals.map((goal) => goal.sets),
    [logged],
  );
});
