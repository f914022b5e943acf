import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { selectArrayRows } from '../../../src/server/db/array-rows.js';
import { insertTestUser, type OpenTestDatabase, openTestDatabase } from '../../support/database.js';

let database: OpenTestDatabase;
let userId: number;
before(async () => {
  database = await openTestDatabase();
  userId = await insertTestUser(database.db, 'anna@example.com', 'Anna');
  const { id: goalId } = await database.db
    .insertInto('goals')
    .values({
      user_id: userId,
      name: 'Run',
      unit: 'km',
      daily: 5,
      days: 30,
      start: '2026-11-01',
      created_at: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const entry = (date: string, amount: number | null) => ({
    user_id: userId,
    goal_id: goalId,
    date,
    amount,
    created_at: 0,
  });
  await database.db
    .insertInto('goal_entries')
    .values([entry('2026-11-01', 0.30000000000000004), entry('2026-11-02', null), entry('2026-11-02', -1e-300)])
    .execute();
});
after(() => database.closeAndDrop());

const entriesQuery = () =>
  database.db
    .selectFrom('goal_entries')
    .select(['date', 'amount', 'user_id'])
    .where('user_id', '=', userId)
    .orderBy('id');

test('a marked select gives arrays in its column order, with the values objects would hold', async () => {
  const expected: Array<[string, number | null, number]> = [
    ['2026-11-01', 0.30000000000000004, userId],
    ['2026-11-02', null, userId],
    ['2026-11-02', -1e-300, userId],
  ];
  // Twice: the second run takes the statement the first one prepared (SQLite's cache, PostgreSQL's named statement).
  for (let run = 0; run < 2; run++) {
    assert.deepEqual(await selectArrayRows<[string, number | null, number]>(entriesQuery()), expected);
  }
});

test('the same select without the mark still gives objects, before and after a marked run', async () => {
  const objects = [
    { date: '2026-11-01', amount: 0.30000000000000004, user_id: userId },
    { date: '2026-11-02', amount: null, user_id: userId },
    { date: '2026-11-02', amount: -1e-300, user_id: userId },
  ];
  assert.deepEqual(await entriesQuery().execute(), objects);
  await selectArrayRows(entriesQuery());
  assert.deepEqual(await entriesQuery().execute(), objects);
});

test('a marked select runs inside a transaction, on its connection', async () => {
  await database.db.transaction().execute(async (trx) => {
    await trx.updateTable('goal_entries').set({ amount: 7 }).where('amount', 'is', null).execute();
    const rows = await selectArrayRows<[number | null]>(
      trx.selectFrom('goal_entries').select('amount').where('user_id', '=', userId).orderBy('id'),
    );
    assert.deepEqual(rows, [[0.30000000000000004], [7], [-1e-300]]);
    await trx.updateTable('goal_entries').set({ amount: null }).where('amount', '=', 7).execute();
  });
});
