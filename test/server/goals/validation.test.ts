import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { addDays } from '../../../src/common/progress.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

let steady: TestApp;
let anna: TestClient;
let goalId: string;
before(async () => {
  steady = await createTestApp();
  anna = await steady.register('anna@example.com');
  goalId = (await anna.post('/api/goals', { name: 'Existing', sets: { '2026-01-01': [1] } })).body.id;
});
after(() => steady.close());

const tenYearsOfDates = (count: number) => {
  const sets: Record<string, number[]> = {};
  for (let day = 0; day < count; day++) sets[addDays('2000-01-01', day)] = [1];
  return sets;
};

/** [body fields, expected code, expected message, expected field]; each is refused by POST (with a valid name) and by PATCH. */
const REFUSED: Array<[Record<string, unknown>, string, string, string]> = [
  [{ name: '' }, 'missing_field', 'name must not be empty', 'name'],
  [{ name: ' \t\n ' }, 'missing_field', 'name must not be empty', 'name'],
  [{ name: 5 }, 'invalid_goal', 'name must be a string', 'name'],
  [{ name: null }, 'invalid_goal', 'name must be a string', 'name'],
  [{ name: 'x'.repeat(201) }, 'invalid_goal', 'name must have at most 200 characters', 'name'],
  [{ name: 'a\u0000b' }, 'invalid_input', 'Text must not contain NUL characters (U+0000)', 'name'],
  [{ unit: 7 }, 'invalid_goal', 'unit must be a string', 'unit'],
  [{ unit: 'u'.repeat(51) }, 'invalid_goal', 'unit must have at most 50 characters', 'unit'],
  [{ unit: '\u0000' }, 'invalid_input', 'Text must not contain NUL characters (U+0000)', 'unit'],
  [{ daily: '5' }, 'invalid_goal', 'daily must be a finite number greater than 0', 'daily'],
  [{ daily: 0 }, 'invalid_goal', 'daily must be a finite number greater than 0', 'daily'],
  [{ daily: -1 }, 'invalid_goal', 'daily must be a finite number greater than 0', 'daily'],
  [{ daily: null }, 'invalid_goal', 'daily must be a finite number greater than 0', 'daily'],
  [{ daily: true }, 'invalid_goal', 'daily must be a finite number greater than 0', 'daily'],
  [{ daily: 1e9 + 1 }, 'invalid_goal', 'daily must be at most 1000000000', 'daily'],
  [{ days: '30' }, 'invalid_goal', 'days must be an integer from 1 to 3650', 'days'],
  [{ days: 0 }, 'invalid_goal', 'days must be an integer from 1 to 3650', 'days'],
  [{ days: 3651 }, 'invalid_goal', 'days must be an integer from 1 to 3650', 'days'],
  [{ days: 1.5 }, 'invalid_goal', 'days must be an integer from 1 to 3650', 'days'],
  [{ sets: [] }, 'invalid_goal', 'sets must be an object of dates to arrays of amounts', 'sets'],
  [{ sets: null }, 'invalid_goal', 'sets must be an object of dates to arrays of amounts', 'sets'],
  [{ sets: '{}' }, 'invalid_goal', 'sets must be an object of dates to arrays of amounts', 'sets'],
  [{ sets: { '2026-02-30': [1] } }, 'invalid_goal', 'sets key "2026-02-30" is not a calendar date YYYY-MM-DD', 'sets'],
  [{ sets: { '2025-02-29': [1] } }, 'invalid_goal', 'sets key "2025-02-29" is not a calendar date YYYY-MM-DD', 'sets'],
  [{ sets: { '2026-1-5': [1] } }, 'invalid_goal', 'sets key "2026-1-5" is not a calendar date YYYY-MM-DD', 'sets'],
  [
    { sets: { '2026-01-15 ': [1] } },
    'invalid_goal',
    'sets key "2026-01-15 " is not a calendar date YYYY-MM-DD',
    'sets',
  ],
  [{ sets: { '2026-01-15': 5 } }, 'invalid_goal', 'sets.2026-01-15 must be an array of amounts', 'sets.2026-01-15'],
  [
    { sets: { '2026-01-15': { 0: 1 } } },
    'invalid_goal',
    'sets.2026-01-15 must be an array of amounts',
    'sets.2026-01-15',
  ],
  [
    { sets: { '2026-01-15': ['5'] } },
    'invalid_goal',
    'sets.2026-01-15 amounts must be finite numbers from -1000000000 to 1000000000',
    'sets.2026-01-15[0]',
  ],
  [
    { sets: { '2026-01-15': [null] } },
    'invalid_goal',
    'sets.2026-01-15 amounts must be finite numbers from -1000000000 to 1000000000',
    'sets.2026-01-15[0]',
  ],
  [
    { sets: { '2026-01-15': [[1]] } },
    'invalid_goal',
    'sets.2026-01-15 amounts must be finite numbers from -1000000000 to 1000000000',
    'sets.2026-01-15[0]',
  ],
  [
    { sets: { '2026-01-15': [2e9] } },
    'invalid_goal',
    'sets.2026-01-15 amounts must be finite numbers from -1000000000 to 1000000000',
    'sets.2026-01-15[0]',
  ],
  [
    { sets: { '2026-01-15': Array(1001).fill(1) } },
    'invalid_goal',
    'sets.2026-01-15 may hold at most 1000 amounts',
    'sets.2026-01-15',
  ],
  [{ sets: tenYearsOfDates(3661) }, 'invalid_goal', 'sets may hold at most 3660 dates', 'sets'],
];

test('POST /api/goals refuses each invalid field with 400, a stable code and a message naming the field', async () => {
  for (const [fields, code, error, field] of REFUSED) {
    const response = await anna.post('/api/goals', { name: 'Valid', ...fields });
    assert.equal(response.status, 400, JSON.stringify(fields).slice(0, 80));
    assert.deepEqual(response.body, { error, code, field });
  }
  assert.equal((await anna.get('/api/goals')).body.length, 1, 'nothing was created');
});

test('POST /api/goals without a name is 400 missing_field', async () => {
  const response = await anna.post('/api/goals', { unit: 'km' });
  assert.equal(response.status, 400);
  assert.deepEqual(response.body, { error: 'name must not be empty', code: 'missing_field', field: 'name' });
});

test('PATCH refuses the same invalid fields and changes nothing, not even the valid fields beside them', async () => {
  const before = (await anna.get('/api/goals')).text;
  for (const [fields, code, error, field] of REFUSED) {
    const response = await anna.patch(`/api/goals/${goalId}`, { unit: 'changed', ...fields });
    assert.equal(response.status, 400, JSON.stringify(fields).slice(0, 80));
    assert.deepEqual(response.body, { error, code, field });
  }
  assert.equal((await anna.get('/api/goals')).text, before);
});

test("PATCH checks the body before the id: a bad field is 400 for a missing, a non-numeric or another user's goal", async () => {
  const ben = await steady.register('ben@example.com');
  const bens = (await ben.post('/api/goals', { name: 'Ben runs' })).body.id as string;
  for (const id of ['999999', 'abc', bens]) {
    const response = await anna.patch(`/api/goals/${id}`, { daily: 'x' });
    assert.equal(response.status, 400, id);
    assert.deepEqual(
      response.body,
      { error: 'daily must be a finite number greater than 0', code: 'invalid_goal', field: 'daily' },
      id,
    );
  }
  assert.equal((await anna.patch('/api/goals/999999', { daily: 2 })).status, 404, 'a good body reaches the id check');
});

test('a float too large for a double (1e400) is not a finite number', async () => {
  const response = await anna.post('/api/goals', '{"name":"Big","daily":1e400}');
  assert.equal(response.status, 400);
  assert.deepEqual(response.body, {
    error: 'daily must be a finite number greater than 0',
    code: 'invalid_goal',
    field: 'daily',
  });
});

test('the limits themselves are accepted', async () => {
  const sets = { ...tenYearsOfDates(3659), '2026-01-15': Array(1000).fill(-1e9) };
  const response = await anna.post('/api/goals', {
    name: '🏃'.repeat(200),
    unit: 'ü'.repeat(50),
    daily: 1e9,
    days: 3650,
    sets,
  });
  assert.equal(response.status, 200);
  assert.equal(Object.keys(response.body.sets).length, 3660);
  assert.deepEqual(response.body.sets['2026-01-15'], Array(1000).fill(-1e9));
  assert.deepEqual(
    (await anna.patch(`/api/goals/${response.body.id}`, { days: 1, daily: 5e-324, sets: { '2000-02-29': [] } })).body,
    { ok: true },
  );
  const listed = await anna.get('/api/goals');
  const patched = listed.body.find((goal: { id: string }) => goal.id === response.body.id);
  assert.deepEqual([patched.daily, patched.days, patched.sets], [5e-324, 1, { '2000-02-29': [] }]);
  assert.ok(listed.text.includes('"sets":{"2000-02-29":[]}'), 'a date with no amounts is kept as an empty array');
  assert.equal((await anna.delete(`/api/goals/${response.body.id}`)).status, 200);
});

test('a body that is not a JSON object is refused', async () => {
  for (const payload of ['[]', '"name"', '5', 'null']) {
    const response = await anna.post('/api/goals', payload);
    assert.equal(response.status, 400, payload);
    assert.deepEqual(response.body, { error: 'body must be object', code: 'invalid_input' }, payload);
  }
  const broken = await anna.post('/api/goals', '{"name":');
  assert.deepEqual(broken.body, { error: 'Request body is not valid JSON', code: 'invalid_json' });
});
