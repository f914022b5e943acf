import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';
import { secondServer } from './fixtures/second-server.js';

// Every rule of `entry_id` on the logging endpoints (docs/api-logging.md, decisions 0091, 0092).

let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const newUser = () => steady.register(`entries${++emails}@example.com`);
const createGoal = async (client: TestClient, body: Record<string, unknown> = {}) =>
  (await client.post('/api/goals', { name: 'Push-ups', ...body })).body as { id: string };
const log = (client: TestClient, goalId: string, date: string, body: Record<string, unknown>) =>
  client.post(`/api/goals/${goalId}/sets/${date}`, body);
const remove = (client: TestClient, goalId: string, date: string, body: Record<string, unknown>) =>
  client.post(`/api/goals/${goalId}/sets/${date}/remove`, body);
const setsOf = async (client: TestClient, goalId: string) =>
  (await client.get('/api/goals')).body.find((g: { id: string }) => g.id === goalId).sets;
/** Rows stored under an entry_id, tombstones included: what a replay must never add to. */
const rowsWithEntryId = async (entryId: string) =>
  (await steady.deps.db.selectFrom('goal_entries').select('id').where('entry_id', '=', entryId).execute()).length;

const conflictBody = {
  error: 'entry_id was already used for another goal, date or amount',
  code: 'entry_id_conflict',
  field: 'entry_id',
};

test('a replayed entry_id adds nothing and answers the date as it is now', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna);
  const first = await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'e-1' });
  assert.equal(first.status, 200);
  assert.deepEqual(first.body, { ok: true, date: '2026-01-15', amounts: [5] });
  assert.deepEqual((await log(anna, goal.id, '2026-01-15', { amount: 3 })).body.amounts, [5, 3]);

  for (let i = 0; i < 3; i++) {
    const replay = await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'e-1' });
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body, { ok: true, date: '2026-01-15', amounts: [5, 3] });
  }
  assert.deepEqual(await setsOf(anna, goal.id), { '2026-01-15': [5, 3] });
  assert.equal(await rowsWithEntryId('e-1'), 1);
});

test('a replay is answered before the caps: replaying the logging that filled a date is 200, not 400', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna, { sets: { '2026-01-15': Array(999).fill(1) } });
  const filling = await log(anna, goal.id, '2026-01-15', { amount: 2, entry_id: 'the-1000th' });
  assert.equal(filling.body.amounts.length, 1000);
  const replay = await log(anna, goal.id, '2026-01-15', { amount: 2, entry_id: 'the-1000th' });
  assert.equal(replay.status, 200);
  assert.equal(replay.body.amounts.length, 1000);
  const fresh = await log(anna, goal.id, '2026-01-15', { amount: 2, entry_id: 'the-1001st' });
  assert.equal(fresh.status, 400);
  assert.equal(fresh.body.code, 'too_many_amounts');
  assert.equal((await log(anna, goal.id, '2026-01-15', { amount: 3, entry_id: 'the-1000th' })).status, 409);
  assert.equal(await rowsWithEntryId('the-1001st'), 0);
});

test('ten copies of one entry_id at the same moment, from two server processes: exactly one entry', async () => {
  await steady.register('parallel@example.com');
  const phone = steady.client();
  const laptop = steady.client();
  for (const device of [phone, laptop]) {
    assert.equal((await device.post('/api/login', { email: 'parallel@example.com', password: PASSWORD })).status, 200);
  }
  const goal = await createGoal(phone, { sets: { '2026-01-15': [1] } });
  const body = { amount: 7.5, entry_id: 'same-tap' };
  const other = await secondServer(steady, laptop.cookies.get('steady_session')!, goal.id, '2026-01-15', [
    body,
    body,
    body,
    body,
    body,
  ]);
  const [otherAnswers, ownAnswers] = await Promise.all([
    other.start(),
    Promise.all(Array.from({ length: 5 }, () => log(phone, goal.id, '2026-01-15', body))),
  ]);
  const answers = [...ownAnswers, ...otherAnswers];
  assert.deepEqual(
    answers.map((answer) => [answer.status, answer.body]),
    Array(10).fill([200, { ok: true, date: '2026-01-15', amounts: [1, 7.5] }]),
  );
  assert.deepEqual(await setsOf(phone, goal.id), { '2026-01-15': [1, 7.5] });
  assert.equal(await rowsWithEntryId('same-tap'), 1);
});

test('the same entry_id with another goal, date or amount is 409 entry_id_conflict and changes nothing', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna);
  const other = await createGoal(anna, { name: 'Squats' });
  await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'tap-1' });
  const cases: Array<[string, string, number]> = [
    [other.id, '2026-01-15', 5],
    [goal.id, '2026-01-16', 5],
    [goal.id, '2026-01-15', 6],
    [goal.id, '2026-01-15', -5],
  ];
  for (const [goalId, date, amount] of cases) {
    const response = await log(anna, goalId, date, { amount, entry_id: 'tap-1' });
    assert.equal(response.status, 409, `${goalId} ${date} ${amount}`);
    assert.deepEqual(response.body, conflictBody);
  }
  assert.deepEqual(await setsOf(anna, goal.id), { '2026-01-15': [5] });
  assert.deepEqual(await setsOf(anna, other.id), {});
  assert.equal(await rowsWithEntryId('tap-1'), 1);
});

test('one entry_id sent to two goals at once: one goal gets it, the other answers 409', async () => {
  const anna = await newUser();
  const first = await createGoal(anna);
  const second = await createGoal(anna, { name: 'Squats' });
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      log(anna, i % 2 ? first.id : second.id, '2026-01-15', { amount: 2, entry_id: 'race' }),
    ),
  );
  // Every request to the goal that got the entry is 200 (the first added it, the others replayed), every other 409.
  const firstStatuses = new Set(answers.filter((_, i) => i % 2).map((answer) => answer.status));
  const secondStatuses = new Set(answers.filter((_, i) => i % 2 === 0).map((answer) => answer.status));
  assert.deepEqual([[...firstStatuses], [...secondStatuses]].sort(), [[200], [409]]);
  const sets = [await setsOf(anna, first.id), await setsOf(anna, second.id)];
  assert.deepEqual(sets.map((s) => JSON.stringify(s)).sort(), ['{"2026-01-15":[2]}', '{}']);
  assert.equal(await rowsWithEntryId('race'), 1);
});

test('a malformed entry_id is 400 invalid_entry_id naming entry_id, on log and remove; nothing changes', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna, { sets: { '2026-01-15': [4] } });
  const refusal = {
    error: 'entry_id must be 1 to 64 characters of A-Z a-z 0-9 _ -',
    code: 'invalid_entry_id',
    field: 'entry_id',
  };
  for (const entryId of ['', 'x'.repeat(65), 'a b', 'a/b', 'ä', 'tap.1', 'tap\n', 5, null, true, [], {}]) {
    for (const call of [log, remove]) {
      const response = await call(anna, goal.id, '2026-01-15', { amount: 4, entry_id: entryId });
      assert.equal(response.status, 400, `${call.name} ${JSON.stringify(entryId)}`);
      assert.deepEqual(response.body, refusal);
    }
  }
  assert.deepEqual(await setsOf(anna, goal.id), { '2026-01-15': [4] });
  const longest = 'A-z_9'.repeat(12) + 'abcd';
  assert.equal(longest.length, 64);
  assert.deepEqual((await log(anna, goal.id, '2026-01-15', { amount: 4, entry_id: longest })).body.amounts, [4, 4]);
  // The amount is checked before the entry_id.
  assert.equal((await log(anna, goal.id, '2026-01-15', { amount: 0, entry_id: '' })).body.code, 'invalid_amount');
});

test("entry_ids belong to one user: another user's identical id neither collides nor reveals anything", async () => {
  const anna = await newUser();
  const ben = await newUser();
  const annas = await createGoal(anna);
  const bens = await createGoal(ben);
  assert.deepEqual((await log(anna, annas.id, '2026-01-15', { amount: 5, entry_id: 'shared' })).body.amounts, [5]);
  const benFirst = await log(ben, bens.id, '2026-01-20', { amount: 9, entry_id: 'shared' });
  assert.equal(benFirst.status, 200);
  assert.deepEqual(benFirst.body.amounts, [9]);
  // Ben replaying Anna's exact logging sees only that her goal does not exist for him.
  const foreign = await log(ben, annas.id, '2026-01-15', { amount: 5, entry_id: 'shared' });
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.code, 'goal_not_found');
  assert.equal((await remove(ben, bens.id, '2026-01-15', { entry_id: 'shared' })).body.amounts.length, 0);
  assert.deepEqual(await setsOf(anna, annas.id), { '2026-01-15': [5] });
  assert.deepEqual(await setsOf(ben, bens.id), { '2026-01-20': [9] });
  assert.equal(await rowsWithEntryId('shared'), 2);
});

test('remove by entry_id removes exactly that entry; retries and unknown ids answer the amounts unchanged', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna);
  await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'first-5' });
  await log(anna, goal.id, '2026-01-15', { amount: 3, entry_id: 'the-3' });
  await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'second-5' });
  await log(anna, goal.id, '2026-01-16', { amount: 8, entry_id: 'other-day' });

  // Not the last 5, as `{ amount: 5 }` would take, but the one named.
  const removed = await remove(anna, goal.id, '2026-01-15', { entry_id: 'first-5' });
  assert.equal(removed.status, 200);
  assert.deepEqual(removed.body, { ok: true, date: '2026-01-15', amounts: [3, 5] });
  for (const entryId of ['first-5', 'never-logged', 'other-day']) {
    const again = await remove(anna, goal.id, '2026-01-15', { entry_id: entryId });
    assert.equal(again.status, 200, entryId);
    assert.deepEqual(again.body, { ok: true, date: '2026-01-15', amounts: [3, 5] }, entryId);
  }
  // With an entry_id, an amount sent along is checked but does not choose the entry.
  assert.equal(
    (await remove(anna, goal.id, '2026-01-15', { entry_id: 'the-3', amount: 'x' })).body.code,
    'invalid_amount',
  );
  assert.deepEqual((await remove(anna, goal.id, '2026-01-15', { entry_id: 'the-3', amount: 5 })).body.amounts, [5]);
  assert.deepEqual((await remove(anna, goal.id, '2026-01-15', { entry_id: 'second-5' })).body.amounts, []);
  assert.deepEqual(await setsOf(anna, goal.id), { '2026-01-16': [8] });
  // Unknown ids on a date without amounts, and on a missing goal.
  assert.deepEqual((await remove(anna, goal.id, '2026-02-01', { entry_id: 'nothing' })).body.amounts, []);
  assert.equal((await remove(anna, '999999', '2026-01-15', { entry_id: 'first-5' })).status, 404);
});

test('a removed entry stays known: a late replay of its logging adds nothing, a different one is 409', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna);
  await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'undone' });
  await log(anna, goal.id, '2026-01-15', { amount: 2 });
  await remove(anna, goal.id, '2026-01-15', { entry_id: 'undone' });
  const late = await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'undone' });
  assert.equal(late.status, 200);
  assert.deepEqual(late.body, { ok: true, date: '2026-01-15', amounts: [2] });
  assert.equal((await log(anna, goal.id, '2026-01-15', { amount: 6, entry_id: 'undone' })).status, 409);

  // Undo by amount of an entry logged with an entry_id keeps it known as well.
  await log(anna, goal.id, '2026-01-15', { amount: 4, entry_id: 'undone-by-amount' });
  assert.deepEqual((await remove(anna, goal.id, '2026-01-15', { amount: 4 })).body.amounts, [2]);
  assert.deepEqual(
    (await log(anna, goal.id, '2026-01-15', { amount: 4, entry_id: 'undone-by-amount' })).body.amounts,
    [2],
  );
  assert.deepEqual(await setsOf(anna, goal.id), { '2026-01-15': [2] });
  assert.equal(await rowsWithEntryId('undone'), 1);
});

test('PATCH of sets keeps the entry_ids of unchanged entries; replaced ones stay known as removed', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna);
  await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'kept-5' });
  await log(anna, goal.id, '2026-01-15', { amount: 3, entry_id: 'dropped-3' });
  await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'kept-second-5' });
  await log(anna, goal.id, '2026-01-16', { amount: 7, entry_id: 'untouched-7' });
  await log(anna, goal.id, '2026-01-17', { amount: 1, entry_id: 'date-gone' });

  const patched = await anna.patch(`/api/goals/${goal.id}`, {
    sets: { '2026-01-15': [5, 4, 5], '2026-01-16': [7], '2026-01-18': [] },
  });
  assert.equal(patched.status, 200);
  const sets = { '2026-01-15': [5, 4, 5], '2026-01-16': [7], '2026-01-18': [] };
  assert.deepEqual(await setsOf(anna, goal.id), sets);

  // Replays of kept entries and of replaced ones all add nothing.
  for (const [date, amount, entryId] of [
    ['2026-01-15', 5, 'kept-5'],
    ['2026-01-15', 5, 'kept-second-5'],
    ['2026-01-15', 3, 'dropped-3'],
    ['2026-01-16', 7, 'untouched-7'],
    ['2026-01-17', 1, 'date-gone'],
  ] as const) {
    const replay = await log(anna, goal.id, date, { amount, entry_id: entryId });
    assert.equal(replay.status, 200, entryId);
  }
  assert.deepEqual(await setsOf(anna, goal.id), sets);
  // The kept ids still name their entries: the second 5, not the last one logged under no id.
  assert.deepEqual((await remove(anna, goal.id, '2026-01-15', { entry_id: 'kept-5' })).body.amounts, [4, 5]);
  assert.deepEqual((await remove(anna, goal.id, '2026-01-15', { entry_id: 'kept-second-5' })).body.amounts, [4]);
  assert.deepEqual((await remove(anna, goal.id, '2026-01-16', { entry_id: 'untouched-7' })).body.amounts, []);
  // A date kept as [] takes a logging like any other and leaves sets when its last amount goes.
  assert.deepEqual((await log(anna, goal.id, '2026-01-18', { amount: 2 })).body.amounts, [2]);
  assert.deepEqual((await remove(anna, goal.id, '2026-01-18', { amount: 2 })).body.amounts, []);
  assert.deepEqual(await setsOf(anna, goal.id), { '2026-01-15': [4] });
});

test('deleting a goal takes its entries and tombstones with it', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna);
  await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'with-goal' });
  await log(anna, goal.id, '2026-01-15', { amount: 6, entry_id: 'removed-with-goal' });
  await remove(anna, goal.id, '2026-01-15', { entry_id: 'removed-with-goal' });
  await anna.delete(`/api/goals/${goal.id}`);
  assert.equal(await rowsWithEntryId('with-goal'), 0);
  assert.equal(await rowsWithEntryId('removed-with-goal'), 0);
  const replay = await log(anna, goal.id, '2026-01-15', { amount: 5, entry_id: 'with-goal' });
  assert.equal(replay.status, 404);
  // The id is free again for a new goal.
  const next = await createGoal(anna);
  assert.equal((await log(anna, next.id, '2026-01-15', { amount: 5, entry_id: 'with-goal' })).status, 200);
});
