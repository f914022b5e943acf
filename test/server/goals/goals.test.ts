import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/app.js';

// The FakeClock starts at 2026-01-15 09:00:00 UTC and the tests run without TZ, so "now" is this wall clock.
const NOW = '2026-01-15 09:00:00';

let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const newUser = () => steady.register(`user${++emails}@example.com`);

test('POST /api/goals fills the spec defaults and answers the created goal', async () => {
  const anna = await newUser();
  const created = await anna.post('/api/goals', { name: 'Push-ups' });
  assert.equal(created.status, 200);
  assert.match(created.headers['content-type'] as string, /^application\/json/);
  assert.match(created.body.id, /^[1-9]\d*$/);
  assert.deepEqual(created.body, {
    id: created.body.id,
    name: 'Push-ups',
    unit: 'Stück',
    daily: 1,
    days: 30,
    start: NOW,
    sets: {},
  });
  // `sets` is an object even when empty, `daily` a number, `days` an integer, `id` a string.
  assert.match(created.text, /"sets":\{\}/);
  assert.match(created.text, /"daily":1,"days":30,/);
  assert.match(created.text, /^\{"id":"\d+",/);
});

test('POST /api/goals trims name and unit and keeps every given value', async () => {
  const anna = await newUser();
  const created = await anna.post('/api/goals', {
    name: '  Laufen \t',
    unit: ' km ',
    daily: 2.5,
    days: 100,
    start: '2026-03-01 07:30',
    sets: { '2026-03-02': [1.5, 2], '2026-03-01': [0.25] },
  });
  assert.equal(created.status, 200);
  assert.deepEqual(created.body, {
    id: created.body.id,
    name: 'Laufen',
    unit: 'km',
    daily: 2.5,
    days: 100,
    start: '2026-03-01 07:30:00',
    sets: { '2026-03-01': [0.25], '2026-03-02': [1.5, 2] },
  });
  const listed = await anna.get('/api/goals');
  assert.deepEqual(listed.body, [created.body]);
});

test('a unit that is empty after trimming becomes the default unit, on create and on change', async () => {
  const anna = await newUser();
  const created = await anna.post('/api/goals', { name: 'Squats', unit: '   ' });
  assert.equal(created.body.unit, 'Stück');
  await anna.patch(`/api/goals/${created.body.id}`, { unit: 'reps' });
  assert.equal((await anna.patch(`/api/goals/${created.body.id}`, { unit: '' })).status, 200);
  assert.equal((await anna.get('/api/goals')).body[0].unit, 'Stück');
});

test("GET /api/goals lists only the caller's goals, oldest first, as an exact JSON array", async () => {
  const anna = await newUser();
  const ben = await newUser();
  assert.deepEqual((await anna.get('/api/goals')).body, []);
  assert.equal((await anna.get('/api/goals')).text, '[]');
  const first = (await anna.post('/api/goals', { name: 'First' })).body;
  await ben.post('/api/goals', { name: "Ben's" });
  const second = (await anna.post('/api/goals', { name: 'Second' })).body;
  const third = (await anna.post('/api/goals', { name: 'Third' })).body;

  const listed = await anna.get('/api/goals');
  assert.equal(listed.status, 200);
  assert.match(listed.headers['content-type'] as string, /^application\/json; charset=utf-8$/);
  assert.equal(listed.headers['cache-control'], 'no-store');
  assert.deepEqual(listed.body, [first, second, third]);
  assert.deepEqual(
    (await ben.get('/api/goals')).body.map((g: { name: string }) => g.name),
    ["Ben's"],
  );
});

test('the goal endpoints answer 401 without a session', async () => {
  const stranger = steady.client();
  for (const [method, url, body] of [
    ['GET', '/api/goals', undefined],
    ['POST', '/api/goals', { name: 'x' }],
    ['PATCH', '/api/goals/1', { name: 'x' }],
    ['DELETE', '/api/goals/1', undefined],
    ['POST', '/api/goals/1/sets/2026-01-15', { amount: 1 }],
    ['POST', '/api/goals/1/sets/2026-01-15/remove', { amount: 1 }],
  ] as const) {
    const response = await stranger.request(method, url, body);
    assert.equal(response.status, 401, `${method} ${url}`);
    assert.equal(response.body.code, 'unauthenticated');
  }
});

test('PATCH changes only the fields sent and replaces sets whole', async () => {
  const anna = await newUser();
  const goal = (
    await anna.post('/api/goals', {
      name: 'Read',
      unit: 'pages',
      daily: 10,
      days: 60,
      start: '2026-01-01',
      sets: { '2026-01-01': [5], '2026-01-02': [7] },
    })
  ).body;
  const url = `/api/goals/${goal.id}`;

  assert.deepEqual((await anna.patch(url, { name: '  Read more ' })).body, { ok: true });
  assert.deepEqual((await anna.get('/api/goals')).body, [{ ...goal, name: 'Read more' }]);

  assert.deepEqual((await anna.patch(url, { daily: 12.5, days: 90 })).body, { ok: true });
  assert.deepEqual((await anna.get('/api/goals')).body, [{ ...goal, name: 'Read more', daily: 12.5, days: 90 }]);

  assert.deepEqual((await anna.patch(url, { sets: { '2026-01-03': [1, 2, 3] } })).body, { ok: true });
  const [changed] = (await anna.get('/api/goals')).body;
  assert.deepEqual(changed, { ...goal, name: 'Read more', daily: 12.5, days: 90, sets: { '2026-01-03': [1, 2, 3] } });

  assert.deepEqual((await anna.patch(url, { sets: {} })).body, { ok: true });
  const cleared = await anna.get('/api/goals');
  assert.deepEqual(cleared.body[0].sets, {});
  assert.match(cleared.text, /"sets":\{\}\}\]$/);
});

test('PATCH ignores start (and any other unknown field); an empty body changes nothing', async () => {
  const anna = await newUser();
  const goal = (await anna.post('/api/goals', { name: 'Walk', start: '2026-02-01 08:00:00' })).body;
  const url = `/api/goals/${goal.id}`;
  assert.deepEqual((await anna.patch(url, { start: '2020-01-01 00:00:00', id: '999', owner: 'x' })).body, { ok: true });
  assert.deepEqual((await anna.patch(url, {})).body, { ok: true });
  assert.deepEqual((await anna.get('/api/goals')).body, [goal]);
});

test("PATCH answers 404 goal_not_found for a missing, another user's or a non-numeric id", async () => {
  const anna = await newUser();
  const ben = await newUser();
  const bens = (await ben.post('/api/goals', { name: "Ben's goal", sets: { '2026-01-01': [1] } })).body;
  for (const id of [bens.id, '999999', '0', 'abc', '1e3', '-1', '99999999999', '1.0']) {
    for (const body of [{ name: 'Stolen', sets: {} }, {}]) {
      const response = await anna.patch(`/api/goals/${id}`, body);
      assert.equal(response.status, 404, `id ${id}`);
      assert.deepEqual(response.body, { error: 'Goal not found', code: 'goal_not_found' });
    }
  }
  assert.deepEqual((await ben.get('/api/goals')).body, [bens]);
});

test("DELETE removes only the caller's goal and always answers {ok:true}", async () => {
  const anna = await newUser();
  const ben = await newUser();
  const annas = (await anna.post('/api/goals', { name: "Anna's" })).body;
  const keep = (await anna.post('/api/goals', { name: 'Keep' })).body;
  const bens = (await ben.post('/api/goals', { name: "Ben's" })).body;

  for (const id of [bens.id, '999999', 'abc', '99999999999']) {
    const response = await anna.delete(`/api/goals/${id}`);
    assert.equal(response.status, 200, `id ${id}`);
    assert.deepEqual(response.body, { ok: true });
  }
  assert.deepEqual((await ben.get('/api/goals')).body, [bens]);

  assert.deepEqual((await anna.delete(`/api/goals/${annas.id}`)).body, { ok: true });
  assert.deepEqual((await anna.get('/api/goals')).body, [keep]);
  assert.deepEqual((await anna.delete(`/api/goals/${annas.id}`)).body, { ok: true });
});

test('text round-trips exactly: umlauts, emoji, quotes, backslashes, SQL-looking input', async () => {
  const anna = await newUser();
  const names = [
    'Übungen für Ärmel & Öl – ß',
    '🏃‍♀️ Laufen 💪🏽',
    'say "hi" and \'bye\'',
    'back\\slash \\" \\\\ \\n',
    "'); DROP TABLE goals;--",
    '<script>alert(1)</script>',
    // Control characters become spaces (decision 0205, invisible-names.test.ts); a zero width space inside stays.
    'zero\u200Bwidth inside',
    'Zażółć gęślą jaźń',
  ];
  const created = [];
  for (const name of names) {
    const response = await anna.post('/api/goals', { name, unit: [...name].slice(0, 20).join('').trim() });
    assert.equal(response.status, 200);
    assert.equal(response.body.name, name);
    created.push(response.body);
  }
  const listed = (await anna.get('/api/goals')).body;
  assert.deepEqual(
    listed.map((g: { name: string }) => g.name),
    names,
  );
  assert.deepEqual(listed, created);
  // The table survived the SQL-looking name, and patching with it works too.
  assert.deepEqual(
    (await anna.patch(`/api/goals/${created[0].id}`, { name: "x'; DELETE FROM goals WHERE '1'='1" })).body,
    { ok: true },
  );
  assert.equal((await anna.get('/api/goals')).body.length, names.length);
});

test('amounts keep their exact value through storage', async () => {
  const anna = await newUser();
  const sets = { '2026-01-15': [0.1, 0.2, 1 / 3, -2.5, 1e9, -1e9, 123456.789, 5e-7] };
  const created = await anna.post('/api/goals', { name: 'Precise', daily: 0.1 + 0.2, sets });
  assert.deepEqual(created.body.sets, sets);
  assert.equal(created.body.daily, 0.1 + 0.2);
  const [listed] = (await anna.get('/api/goals')).body;
  assert.deepEqual(listed.sets, sets);
  assert.equal(listed.daily, 0.30000000000000004);
});

test('PATCH of sets changes amounts in place where a date keeps its number of amounts, exactly and in order', async () => {
  const anna = await newUser();
  const created = await anna.post('/api/goals', {
    name: 'In place',
    sets: { '2026-01-01': [1, 2, 3], '2026-01-02': [4], '2026-01-03': [], '2026-01-04': [5, 6] },
  });
  const goalId = Number(created.body.id);
  const rowIds = async () =>
    (
      await steady.deps.db
        .selectFrom('goal_entries')
        .select(['id', 'date'])
        .where('goal_id', '=', goalId)
        .where('removed_at', 'is', null)
        .orderBy('id')
        .execute()
    ).map((row) => `${row.date}#${row.id}`);
  const before = await rowIds();

  // Jan 1 and Jan 4 keep their counts (in place, odd values included); Jan 2 grows, Jan 3 gets amounts: rewritten.
  const sets = {
    '2026-01-01': [0.1, 2, 1 / 3],
    '2026-01-02': [4, 4],
    '2026-01-03': [7],
    '2026-01-04': [-1e9, 5e-7],
  };
  assert.equal((await anna.patch(`/api/goals/${goalId}`, { sets })).status, 200);
  const [listed] = (await anna.get('/api/goals')).body;
  assert.deepEqual(listed.sets, sets);

  const after = await rowIds();
  const kept = (list: string[], date: string) => list.filter((row) => row.startsWith(date));
  assert.deepEqual(kept(after, '2026-01-01'), kept(before, '2026-01-01'), 'Jan 1 kept its rows');
  assert.deepEqual(kept(after, '2026-01-04'), kept(before, '2026-01-04'), 'Jan 4 kept its rows');
  assert.notDeepEqual(kept(after, '2026-01-02'), kept(before, '2026-01-02'), 'Jan 2 was rewritten');
  assert.equal(kept(after, '2026-01-03').length, 1);
});

test('PATCH changing more amounts in place than one statement takes sets every one of them', async () => {
  // 123 amounts: statements of 50, 50 and 23 (the last filled up by repeating its last change).
  const anna = await newUser();
  const dateOf = (day: number) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);
  const setsOf = (amountOf: (day: number, i: number) => number) =>
    Object.fromEntries(Array.from({ length: 41 }, (_, day) => [dateOf(day), [0, 1, 2].map((i) => amountOf(day, i))]));
  const created = await anna.post('/api/goals', { name: 'Many in place', sets: setsOf(() => 1) });
  const sets = setsOf((day, i) => day * 10 + i + 0.25);
  assert.equal((await anna.patch(`/api/goals/${created.body.id}`, { sets })).status, 200);
  const [listed] = (await anna.get('/api/goals')).body;
  assert.deepEqual(listed.sets, sets);
});
