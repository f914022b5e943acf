import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setsJsonBytes } from '../../../src/server/goals/serialize.js';
import { createTestApp, PASSWORD } from '../../support/app.js';
import { OLD_USER_EMAIL, olderDatabase } from '../../support/migrations.js';

/** Goals as they were stored up to migration 0005: `sets` as canonical JSON text in `goals.sets_json`. */
const OLD_GOALS = [
  { name: 'Empty', sets_json: '{}' },
  {
    name: 'Push-ups "daily"',
    sets_json: '{"2025-12-31":[20,15.5,-5,20],"2026-01-01":[],"2026-01-15":[0.1,1000000000,1e-7,3],"2026-02-28":[7]}',
  },
  { name: 'Long', sets_json: JSON.stringify(longSets()) },
];

function longSets(): Record<string, number[]> {
  const sets: Record<string, number[]> = {};
  const day = new Date(Date.UTC(2016, 0, 1));
  for (let i = 0; i < 1200; i++) {
    sets[day.toISOString().slice(0, 10)] = i % 7 === 0 ? [] : [i % 5, 2.5, (i * 37) % 101];
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return sets;
}

test('migration 0006 moves sets_json into goal_entries: GET /api/goals answers the same bytes as before', async () => {
  const { database, db, userId, close } = await olderDatabase('0006');
  const expected: string[] = [];
  for (const goal of OLD_GOALS) {
    const row = { user_id: userId, unit: 'Stück', daily: 2.5, days: 30, start: '2026-01-01 08:00:00', created_at: 1 };
    const { id } = await db
      .insertInto('goals')
      .values({ ...row, name: goal.name, sets_json: goal.sets_json, updated_at: 2 })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The answer as the code before 0006 wrote it: the stored text spliced in.
    expected.push(
      `{"id":"${id}","name":${JSON.stringify(goal.name)},"unit":"Stück","daily":2.5,"days":30,` +
        `"start":"2026-01-01 08:00:00","sets":${goal.sets_json}}`,
    );
  }
  await close();

  const steady = await createTestApp({}, { database });
  try {
    const client = steady.client();
    assert.equal((await client.post('/api/login', { email: OLD_USER_EMAIL, password: PASSWORD })).status, 200);
    const listed = await client.get('/api/goals');
    assert.equal(listed.text, `[${expected.join(',')}]`);
    // The counters behind the size cap match the old text's length, and logging continues where it left off.
    const counters = await steady.deps.db
      .selectFrom('goals')
      .select(['sets_dates', 'sets_amount_chars'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      counters.map((c) => setsJsonBytes({ dates: c.sets_dates, amountChars: c.sets_amount_chars })),
      OLD_GOALS.map((g) => g.sets_json.length),
    );
    const goalId = JSON.parse(listed.text)[1].id;
    assert.deepEqual(
      (await client.post(`/api/goals/${goalId}/sets/2025-12-31`, { amount: 20 })).body.amounts,
      [20, 15.5, -5, 20, 20],
    );
    assert.deepEqual(
      (await client.post(`/api/goals/${goalId}/sets/2025-12-31/remove`, { amount: 20 })).body.amounts,
      [20, 15.5, -5, 20],
    );
    assert.deepEqual((await client.post(`/api/goals/${goalId}/sets/2026-01-01`, { amount: 4 })).body.amounts, [4]);
    assert.equal(
      (await client.get('/api/goals')).text,
      `[${expected.join(',').replace('"2026-01-01":[]', '"2026-01-01":[4]')}]`,
    );
  } finally {
    await steady.close();
  }
});
