import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { addDays } from '../../../src/common/progress.js';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';
import { setsJsonBytes } from '../../../src/server/goals/serialize.js';
import { secondServer } from './fixtures/second-server.js';

let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const newUser = () => steady.register(`logger${++emails}@example.com`);
const createGoal = async (client: TestClient, body: Record<string, unknown> = {}) =>
  (await client.post('/api/goals', { name: 'Push-ups', ...body })).body as {
    id: string;
    sets: Record<string, number[]>;
  };
const log = (client: TestClient, goalId: string, date: string, amount: unknown) =>
  client.post(`/api/goals/${goalId}/sets/${date}`, { amount });
const undo = (client: TestClient, goalId: string, date: string, amount: unknown) =>
  client.post(`/api/goals/${goalId}/sets/${date}/remove`, { amount });
const setsOf = async (client: TestClient, goalId: string) =>
  (await client.get('/api/goals')).body.find((g: { id: string }) => g.id === goalId).sets;

test('logging appends one amount and answers all amounts of that date in logging order', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna, { sets: { '2026-01-10': [3] } });

  const first = await log(anna, goal.id, '2026-01-15', 20);
  assert.equal(first.status, 200);
  assert.deepEqual(first.body, { ok: true, date: '2026-01-15', amounts: [20] });
  assert.deepEqual((await log(anna, goal.id, '2026-01-15', 15.5)).body, {
    ok: true,
    date: '2026-01-15',
    amounts: [20, 15.5],
  });
  assert.deepEqual((await log(anna, goal.id, '2026-01-15', -5)).body, {
    ok: true,
    date: '2026-01-15',
    amounts: [20, 15.5, -5],
  });
  assert.deepEqual((await log(anna, goal.id, '2026-01-01', 1e9)).body, {
    ok: true,
    date: '2026-01-01',
    amounts: [1e9],
  });

  const listed = await anna.get('/api/goals');
  assert.deepEqual(listed.body[0].sets, { '2026-01-01': [1e9], '2026-01-10': [3], '2026-01-15': [20, 15.5, -5] });
  // Stored canonically: dates ascending, whatever order they were logged in.
  assert.match(listed.text, /"sets":\{"2026-01-01":\[1000000000\],"2026-01-10":\[3\],"2026-01-15":\[20,15.5,-5\]\}/);
});

test('remove takes away the LAST occurrence of the amount, and a date left empty leaves sets', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna, { sets: { '2026-01-15': [5, 3, 5, 2], '2026-01-16': [7] } });

  const removed = await undo(anna, goal.id, '2026-01-15', 5);
  assert.equal(removed.status, 200);
  assert.deepEqual(removed.body, { ok: true, date: '2026-01-15', amounts: [5, 3, 2] });
  assert.deepEqual((await undo(anna, goal.id, '2026-01-15', 5)).body, {
    ok: true,
    date: '2026-01-15',
    amounts: [3, 2],
  });

  const missing = await undo(anna, goal.id, '2026-01-15', 5);
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { error: 'amount 5 is not logged on 2026-01-15', code: 'amount_not_found' });
  assert.equal((await undo(anna, goal.id, '2026-01-20', 1)).body.code, 'amount_not_found');

  assert.deepEqual((await undo(anna, goal.id, '2026-01-16', 7)).body, { ok: true, date: '2026-01-16', amounts: [] });
  assert.deepEqual(await setsOf(anna, goal.id), { '2026-01-15': [3, 2] });
  await undo(anna, goal.id, '2026-01-15', 3);
  assert.deepEqual((await undo(anna, goal.id, '2026-01-15', 2)).body, { ok: true, date: '2026-01-15', amounts: [] });
  const listed = await anna.get('/api/goals');
  assert.deepEqual(listed.body[0].sets, {});
  assert.match(listed.text, /"sets":\{\}/);
});

test('log then undo with fractional amounts matches exactly', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna);
  await log(anna, goal.id, '2026-01-15', 0.1);
  await log(anna, goal.id, '2026-01-15', 0.2);
  assert.deepEqual((await undo(anna, goal.id, '2026-01-15', 0.1)).body.amounts, [0.2]);
  assert.equal((await undo(anna, goal.id, '2026-01-15', 0.30000000000000004)).status, 404);
});

test("both logging endpoints answer 404 goal_not_found for another user's, a missing or a non-numeric goal", async () => {
  const anna = await newUser();
  const ben = await newUser();
  const bens = await createGoal(ben, { sets: { '2026-01-15': [4] } });
  for (const id of [bens.id, '999999', 'abc', '0', '99999999999']) {
    for (const call of [log, undo]) {
      const response = await call(anna, id, '2026-01-15', 4);
      assert.equal(response.status, 404, `${call.name} ${id}`);
      assert.deepEqual(response.body, { error: 'Goal not found', code: 'goal_not_found' });
    }
  }
  assert.deepEqual(await setsOf(ben, bens.id), { '2026-01-15': [4] });
});

test('a bad date is 400 invalid_date and a bad amount 400 invalid_amount; nothing changes', async () => {
  const anna = await newUser();
  const goal = await createGoal(anna, { sets: { '2026-01-15': [1] } });
  for (const date of ['2026-02-30', '2025-02-29', '2026-1-5', '2026-13-01', 'today', '20260115', '0999-01-01']) {
    for (const call of [log, undo]) {
      const response = await call(anna, goal.id, date, 1);
      assert.equal(response.status, 400, `${call.name} ${date}`);
      assert.deepEqual(response.body, {
        error: `date "${date}" is not a calendar date YYYY-MM-DD`,
        code: 'invalid_date',
        field: 'date',
      });
    }
  }
  const amountError = {
    error: 'amount must be a finite number other than 0, from -1000000000 to 1000000000',
    code: 'invalid_amount',
    field: 'amount',
  };
  for (const amount of [0, -0, '5', null, true, [1], { n: 1 }, 1e9 + 1, -1e9 - 1, undefined]) {
    for (const call of [log, undo]) {
      const response = await call(anna, goal.id, '2026-01-15', amount);
      assert.equal(response.status, 400, `${call.name} ${JSON.stringify(amount)}`);
      assert.deepEqual(response.body, amountError);
    }
  }
  const infinite = await anna.post(`/api/goals/${goal.id}/sets/2026-01-15`, '{"amount":1e400}');
  assert.deepEqual(infinite.body, amountError);
  assert.deepEqual(await setsOf(anna, goal.id), { '2026-01-15': [1] });
});

test('refusal order: a non-numeric id is 404 before the date is checked; a missing numeric id is only found after date and amount', async () => {
  const anna = await newUser();
  const notFound = { error: 'Goal not found', code: 'goal_not_found' };
  const badDate = { error: 'date "2026-02-30" is not a calendar date YYYY-MM-DD', code: 'invalid_date', field: 'date' };
  const badAmount = {
    error: 'amount must be a finite number other than 0, from -1000000000 to 1000000000',
    code: 'invalid_amount',
    field: 'amount',
  };
  for (const call of [log, undo]) {
    const cases: Array<[string, string, unknown, number, object]> = [
      ['abc', '2026-02-30', 1, 404, notFound],
      ['abc', '2026-01-15', 0, 404, notFound],
      ['999999', '2026-02-30', 1, 400, badDate],
      ['999999', '2026-02-30', 0, 400, badDate],
      ['999999', '2026-01-15', 0, 400, badAmount],
      ['999999', '2026-01-15', 1, 404, notFound],
    ];
    for (const [id, date, amount, status, body] of cases) {
      const response = await call(anna, id, date, amount);
      assert.equal(response.status, status, `${call.name} ${id} ${date} ${amount}`);
      assert.deepEqual(response.body, body, `${call.name} ${id} ${date} ${amount}`);
    }
  }
});

test('the caps hold: 1000 amounts per date and 3660 dates per goal', async () => {
  const anna = await newUser();
  const dates: Record<string, number[]> = {};
  for (let day = 0; day < 3659; day++) dates[addDays('2000-01-01', day)] = [1];
  const goal = await createGoal(anna, { sets: { ...dates, '2026-01-15': Array(999).fill(2) } });

  assert.equal((await log(anna, goal.id, '2026-01-15', 2)).body.amounts.length, 1000);
  const full = await log(anna, goal.id, '2026-01-15', 2);
  assert.equal(full.status, 400);
  assert.deepEqual(full.body, { error: 'a date may hold at most 1000 amounts', code: 'too_many_amounts' });

  const tooManyDates = await log(anna, goal.id, '2026-01-16', 1);
  assert.equal(tooManyDates.status, 400);
  assert.deepEqual(tooManyDates.body, {
    error: 'a goal may hold amounts on at most 3660 dates',
    code: 'too_many_dates',
  });
  // An existing date still takes amounts, and freeing a date makes room for a new one.
  assert.deepEqual((await log(anna, goal.id, '2000-01-01', 1)).body.amounts, [1, 1]);
  await undo(anna, goal.id, '2000-01-02', 1);
  assert.deepEqual((await log(anna, goal.id, '2026-01-16', 1)).body.amounts, [1]);
  const sets = await setsOf(anna, goal.id);
  assert.equal(Object.keys(sets).length, 3660);
  assert.equal(sets['2026-01-15'].length, 1000);
});

test('two sessions of one user log 200 amounts each at the same time: none is lost', async () => {
  await steady.register('both@example.com');
  const phone = steady.client();
  const laptop = steady.client();
  for (const device of [phone, laptop]) {
    assert.equal((await device.post('/api/login', { email: 'both@example.com', password: PASSWORD })).status, 200);
  }
  assert.notEqual(phone.cookies.get('steady_session'), laptop.cookies.get('steady_session'));
  const goal = await createGoal(phone);

  const phoneAmounts = Array.from({ length: 200 }, (_, i) => i + 1);
  const laptopAmounts = Array.from({ length: 200 }, (_, i) => 1000 + i + 0.5);
  const responses = await Promise.all([
    ...phoneAmounts.map((amount) => log(phone, goal.id, '2026-01-15', amount)),
    ...laptopAmounts.map((amount) => log(laptop, goal.id, '2026-01-15', amount)),
  ]);
  assert.deepEqual(
    responses.map((r) => r.status),
    Array(400).fill(200),
  );
  // Each answer saw a distinct length: the edits ran one after the other.
  assert.deepEqual(
    responses.map((r) => r.body.amounts.length).sort((a, b) => a - b),
    Array.from({ length: 400 }, (_, i) => i + 1),
  );

  const amounts: number[] = (await setsOf(laptop, goal.id))['2026-01-15'];
  assert.equal(amounts.length, 400);
  assert.deepEqual(
    [...amounts].sort((a, b) => a - b),
    [...phoneAmounts, ...laptopAmounts],
  );
  const sum = amounts.reduce((total, amount) => total + amount, 0);
  assert.equal(sum, (200 * 201) / 2 + 200 * 1000 + (199 * 200) / 2 + 100);
});

test('two server processes on one database log 200 amounts each at the same time: none is lost', async () => {
  await steady.register('two-servers@example.com');
  const phone = steady.client();
  const laptop = steady.client();
  for (const device of [phone, laptop]) {
    assert.equal(
      (await device.post('/api/login', { email: 'two-servers@example.com', password: PASSWORD })).status,
      200,
    );
  }
  const goal = await createGoal(phone);
  const phoneAmounts = Array.from({ length: 200 }, (_, i) => i + 1);
  const laptopAmounts = Array.from({ length: 200 }, (_, i) => 1000 + i + 0.5);
  const other = await secondServer(
    steady,
    laptop.cookies.get('steady_session')!,
    goal.id,
    '2026-01-15',
    laptopAmounts.map((amount) => ({ amount })),
  );

  const [laptopAnswers, phoneAnswers] = await Promise.all([
    other.start(),
    Promise.all(phoneAmounts.map((amount) => log(phone, goal.id, '2026-01-15', amount))),
  ]);
  const answers = [...phoneAnswers, ...laptopAnswers];
  assert.deepEqual(
    answers.map((answer) => answer.status),
    Array(400).fill(200),
    JSON.stringify(answers.find((answer) => answer.status !== 200)?.body),
  );
  assert.deepEqual(
    answers.map((answer) => answer.body.amounts.length).sort((a, b) => a - b),
    Array.from({ length: 400 }, (_, i) => i + 1),
  );
  const amounts: number[] = (await setsOf(phone, goal.id))['2026-01-15'];
  assert.equal(amounts.length, 400);
  assert.deepEqual(
    [...amounts].sort((a, b) => a - b),
    [...phoneAmounts, ...laptopAmounts],
  );
  assert.equal(
    amounts.reduce((total, amount) => total + amount, 0),
    (200 * 201) / 2 + 200 * 1000 + (199 * 200) / 2 + 100,
  );
});

test("the goal's size counters follow every edit exactly: the cap sees the length GET /api/goals writes", async () => {
  const anna = await newUser();
  const goal = await createGoal(anna, { sets: { '2026-01-01': [], '2026-01-02': [1.25, -3] } });
  const edits: Array<() => Promise<unknown>> = [
    () => log(anna, goal.id, '2026-01-01', 12345.678),
    () => log(anna, goal.id, '2026-01-03', 1e-7),
    () => log(anna, goal.id, '2026-01-03', 2),
    () => undo(anna, goal.id, '2026-01-03', 1e-7),
    () => undo(anna, goal.id, '2026-01-03', 2),
    () =>
      anna.patch(`/api/goals/${goal.id}`, {
        sets: { '2026-01-05': [], '2026-01-02': [1.25, 7, -3], '2026-01-09': [0.5] },
      }),
    () => log(anna, goal.id, '2026-01-05', 100),
    () => undo(anna, goal.id, '2026-01-02', 7),
    () => anna.patch(`/api/goals/${goal.id}`, { sets: {} }),
    () => log(anna, goal.id, '2026-01-05', 3),
  ];
  for (const [step, edit] of [[-1, async () => {}] as const, ...edits.entries()]) {
    await edit();
    const listed = await setsOf(anna, goal.id);
    const row = await steady.deps.db
      .selectFrom('goals')
      .select(['sets_dates', 'sets_amount_chars'])
      .where('id', '=', Number(goal.id))
      .executeTakeFirstOrThrow();
    assert.equal(
      setsJsonBytes({ dates: row.sets_dates, amountChars: row.sets_amount_chars }),
      JSON.stringify(listed).length,
      `after edit ${step}: ${JSON.stringify(listed)}`,
    );
  }
});
