import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import Value from 'typebox/value';
import { IMPORT_BODY_LIMIT_BYTES } from '../../../src/common/contract/export-identity.js';
import { GOAL_LIMITS } from '../../../src/common/goal.js';
import { addDays } from '../../../src/common/progress.js';
import {
  ExportDocumentSchema,
  jsonSchemaDocument,
  SCHEMA_DOC_PATH,
} from '../../../src/common/contract/export-format.js';
import { projectRoot } from '../../../src/server/paths.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const newUser = (name = '') => steady.register(`data${++emails}@example.com`, { name });

/** 3,000 consecutive dates from 2020-01-01 with one to three amounts each, fractions included. */
function longSets(): Record<string, number[]> {
  const sets: Record<string, number[]> = {};
  for (let i = 0; i < 3000; i++)
    sets[addDays('2020-01-01', i)] = i % 3 === 0 ? [0.1, 0.2] : i % 3 === 1 ? [1] : [2.5, -0.3, 7];
  return sets;
}

async function fillAccount(client: TestClient) {
  await client.post('/api/goals', {
    name: 'Push-ups 💪🏽',
    unit: 'Wiederholungen',
    daily: 0.1,
    days: 3650,
    start: '2020-02-29 23:59:58',
    sets: longSets(),
  });
  await client.post('/api/goals', {
    name: '=cmd|"/c calc"!A1',
    unit: 'Stück',
    daily: 30,
    days: 30,
    start: '2026-01-15',
    sets: { '2026-01-15': [1e9, -1e9, 1e-7] },
  });
  await client.post('/api/goals', { name: 'Empty', daily: 1 });
}

test('GET /api/export: an attachment named by the date, format/version/account/goals exactly as the API shows them, valid against the schema', async () => {
  const anna = await newUser('Anna 🦊');
  await anna.patch('/api/me', { locale: 'pl' });
  await fillAccount(anna);
  const exported = await anna.get('/api/export');
  assert.equal(exported.status, 200);
  assert.equal(exported.headers['content-disposition'], 'attachment; filename="steady-export-2026-01-15.json"');
  assert.match(String(exported.headers['content-type']), /^application\/json/);
  const doc = exported.body;
  assert.equal(doc.format, 'steady-export');
  assert.equal(doc.version, 1);
  assert.equal(doc.exported_at, '2026-01-15T09:00:00.000Z');
  assert.deepEqual(doc.account, {
    email: `data${emails}@example.com`,
    name: 'Anna 🦊',
    locale: 'pl',
    created_at: '2026-01-15T09:00:00.000Z',
  });
  const listed = (await anna.get('/api/goals')).body;
  assert.equal(doc.goals.length, 3);
  for (const [i, goal] of doc.goals.entries()) {
    const { created_at, updated_at, ...apiFields } = goal;
    assert.deepEqual(apiFields, listed[i]);
    assert.equal(created_at, '2026-01-15T09:00:00.000Z');
    assert.equal(updated_at, '2026-01-15T09:00:00.000Z');
  }
  assert.equal(doc.goals[0].daily, 0.1);
  assert.equal(Object.keys(doc.goals[0].sets).length, 3000);
  assert.ok(
    Value.Check(ExportDocumentSchema, doc),
    JSON.stringify([...Value.Errors(ExportDocumentSchema, doc)].slice(0, 3)),
  );
  // Another user's goals never appear.
  assert.deepEqual((await (await newUser()).get('/api/export')).body.goals, []);
  assert.equal((await steady.client().get('/api/export')).status, 401);
});

test("the JSON Schema in docs/ is the format module's schema", () => {
  const published = JSON.parse(readFileSync(path.join(projectRoot, SCHEMA_DOC_PATH), 'utf8'));
  assert.deepEqual(published, jsonSchemaDocument());
});

test('GET /api/export.csv: one row per logged amount, quoted text, formulas defused', async () => {
  const ben = await newUser();
  await ben.post('/api/goals', {
    name: '=HYPERLINK("x")',
    unit: '+1',
    sets: { '2026-01-02': [3, 0.1], '2026-01-01': [-2] },
  });
  await ben.post('/api/goals', { name: 'Läufe "lang"; zwei', unit: '@km', sets: { '2026-01-03': [5] } });
  await ben.post('/api/goals', { name: 'nothing logged' });
  const csv = await ben.get('/api/export.csv');
  assert.equal(csv.status, 200);
  assert.match(String(csv.headers['content-type']), /^text\/csv; charset=utf-8/);
  assert.equal(csv.headers['content-disposition'], 'attachment; filename="steady-export-2026-01-15.csv"');
  const [first, second] = (await ben.get('/api/goals')).body.map((g: { id: string }) => g.id);
  assert.equal(
    csv.text,
    '\uFEFFgoal_id,goal,unit,date,amount\r\n' +
      `${first},"'=HYPERLINK(""x"")","'+1",2026-01-01,-2\r\n` +
      `${first},"'=HYPERLINK(""x"")","'+1",2026-01-02,3\r\n` +
      `${first},"'=HYPERLINK(""x"")","'+1",2026-01-02,0.1\r\n` +
      `${second},"Läufe ""lang""; zwei","'@km",2026-01-03,5\r\n`,
  );
});

test('GET /api/export.csv in German or Polish: semicolons and decimal commas, as spreadsheets there read them', async () => {
  const ewa = await newUser();
  await ewa.post('/api/goals', { name: 'Woda; 0,5 l', unit: 'szklanki', sets: { '2026-01-01': [2.5, -0.25, 3] } });
  const [goal] = (await ewa.get('/api/goals')).body.map((g: { id: string }) => g.id);
  const rows = (separator: string, amounts: string[]) =>
    `\uFEFF${['goal_id', 'goal', 'unit', 'date', 'amount'].join(separator)}\r\n` +
    amounts
      .map((amount) => [goal, '"Woda; 0,5 l"', '"szklanki"', '2026-01-01', amount].join(separator) + '\r\n')
      .join('');
  for (const [locale, separator, amounts] of [
    ['pl', ';', ['2,5', '-0,25', '3']],
    ['de', ';', ['2,5', '-0,25', '3']],
    ['en', ',', ['2.5', '-0.25', '3']],
  ] as const) {
    assert.equal((await ewa.patch('/api/me', { locale })).status, 200);
    assert.equal((await ewa.get('/api/export.csv')).text, rows(separator, [...amounts]), locale);
  }
});

test('export -> import into another account gives the same goals, appended after the existing ones (emoji, 0.1, 2020, 3,000 dates)', async () => {
  const anna = await newUser();
  await fillAccount(anna);
  const doc = (await anna.get('/api/export')).body;

  const carl = await newUser();
  await carl.post('/api/goals', { name: "Carl's own" });
  steady.clock.advance(60_000);
  const imported = await carl.post('/api/import', doc);
  assert.equal(imported.status, 200, imported.text);
  assert.deepEqual(imported.body, { ok: true, goals: 3 });

  const carlGoals = (await carl.get('/api/goals')).body;
  assert.equal(carlGoals.length, 4);
  assert.equal(carlGoals[0].name, "Carl's own");
  const strip = ({ id: _id, ...rest }: { id: string }) => rest;
  assert.deepEqual(
    carlGoals.slice(1).map(strip),
    doc.goals.map(
      ({ id: _i, created_at: _c, updated_at: _u, ...rest }: { id: string; created_at: string; updated_at: string }) =>
        rest,
    ),
  );
  // Imported goals get new ids, larger than the existing ones; their stored times are those of the export.
  assert.ok(carlGoals.slice(1).every((g: { id: string }) => Number(g.id) > Number(carlGoals[0].id)));
  const again = (await carl.get('/api/export')).body;
  assert.deepEqual(
    again.goals.slice(1).map(({ id: _id, ...rest }: { id: string }) => rest),
    doc.goals.map(({ id: _id, ...rest }: { id: string }) => rest),
  );
  // The importing account itself is unchanged.
  assert.equal(again.account.email, `data${emails}@example.com`);
});

test('the order, archive and reminders leave with the export and come back with the import, after the importer’s own goals', async () => {
  const anna = await newUser();
  const id = async (name: string) => (await anna.post('/api/goals', { name })).body.id as string;
  const [walk, read, swim, stretch] = [await id('Walk'), await id('Read'), await id('Swim'), await id('Stretch')];
  // Anna's order: Swim, Walk, then the goals she never placed (Read, Stretch) in creation order.
  assert.equal((await anna.put('/api/goal-layout/order', { ids: [swim, walk] })).status, 200);
  const archivedAt = new Date(steady.clock.now()).toISOString();
  assert.equal((await anna.post(`/api/goals/${read}/archive`, {})).status, 200);
  assert.equal((await anna.put(`/api/goals/${walk}/reminder`, { time: '07:30', channel: 'email' })).status, 200);
  assert.equal((await anna.put(`/api/goals/${stretch}/reminder`, { time: '21:05', channel: 'push' })).status, 200);
  const doc = (await anna.get('/api/export')).body;
  assert.ok(
    Value.Check(ExportDocumentSchema, doc),
    JSON.stringify([...Value.Errors(ExportDocumentSchema, doc)].slice(0, 3)),
  );
  const stored = doc.goals.map(({ name, position, archived_at, reminder }: Record<string, unknown>) => ({
    name,
    position,
    archived_at,
    reminder,
  }));
  assert.deepEqual(stored, [
    { name: 'Walk', position: 1, archived_at: undefined, reminder: { time: '07:30', channel: 'email' } },
    { name: 'Read', position: undefined, archived_at: archivedAt, reminder: undefined },
    { name: 'Swim', position: 0, archived_at: undefined, reminder: undefined },
    { name: 'Stretch', position: undefined, archived_at: undefined, reminder: { time: '21:05', channel: 'push' } },
  ]);
  // A goal without them carries none of the keys (the goal fields of GET /api/goals and the times only).
  const swimGoal = doc.goals[2];
  assert.ok(swimGoal);
  assert.deepEqual(Object.keys(swimGoal).sort(), [
    'created_at',
    'daily',
    'days',
    'id',
    'name',
    'position',
    'sets',
    'start',
    'unit',
    'updated_at',
  ]);

  // Ben has goals of his own, one placed after one never placed: the import comes after both.
  const ben = await newUser();
  const bensFirst = (await ben.post('/api/goals', { name: 'Ben 1' })).body.id as string;
  const bensSecond = (await ben.post('/api/goals', { name: 'Ben 2' })).body.id as string;
  assert.equal((await ben.put('/api/goal-layout/order', { ids: [bensSecond] })).status, 200);
  assert.equal((await ben.post('/api/import', doc)).status, 200);
  const names = new Map(
    (await ben.get('/api/goals')).body.map((goal: { id: string; name: string }) => [goal.id, goal.name]),
  );
  const layout = (await ben.get('/api/goal-layout')).body;
  assert.deepEqual(
    layout.order.map((goalId: string) => names.get(goalId)),
    ['Ben 2', 'Ben 1', 'Swim', 'Walk', 'Read', 'Stretch'],
  );
  assert.deepEqual(
    layout.archived.map((goalId: string) => names.get(goalId)),
    ['Read'],
  );
  const reminders = (await ben.get('/api/reminders')).body.map(
    ({ goal_id, ...reminder }: { goal_id: string; time: string; channel: string }) => ({
      goal: names.get(goal_id),
      ...reminder,
    }),
  );
  assert.deepEqual(reminders, [
    { goal: 'Walk', time: '07:30', channel: 'email' },
    { goal: 'Stretch', time: '21:05', channel: 'push' },
  ]);
  assert.ok(names.get(bensFirst) === 'Ben 1');

  // Exported again, Ben's copy of Anna's goals carries what hers did, their places now after Ben's own goals.
  const again = (await ben.get('/api/export')).body.goals.slice(2);
  const strip = ({ id: _id, position: _position, ...rest }: Record<string, unknown>) => rest;
  assert.deepEqual(again.map(strip), doc.goals.map(strip));
  assert.deepEqual(
    again.map((goal: { position?: number }) => goal.position),
    [3, undefined, 2, undefined],
  );
});

test('a bad document imports nothing and answers 400 naming the path of the bad value', async () => {
  const dora = await newUser();
  await dora.post('/api/goals', { name: 'Kept' });
  const good = { name: 'A', unit: 'x', daily: 1, days: 30, start: '2026-01-15 09:00:00', sets: {} };
  // The third value: the refused key answered beside `field`, where one is refused (decision 0179).
  const cases: Array<[unknown, string, string?]> = [
    [
      {
        format: 'steady-export',
        version: 1,
        exported_at: '2026-01-15T09:00:00.000Z',
        goals: [good, { ...good, daily: 'ten' }],
      },
      'goals[1].daily',
    ],
    [
      { format: 'steady-export', version: 1, goals: [good, good, { ...good, sets: { '2026-02-30': [1] } }] },
      'goals[2].sets',
      '2026-02-30',
    ],
    [
      {
        format: 'steady-export',
        version: 1,
        goals: [{ ...good, sets: { '2026-01-01': [2], [`ä${'x'.repeat(150)}`]: [1] } }],
      },
      'goals[0].sets',
      `ä${'x'.repeat(99)}…`,
    ],
    [
      { format: 'steady-export', version: 1, goals: [{ ...good, sets: { '2026-01-01': [2, 'x'] } }] },
      'goals[0].sets',
      '2026-01-01',
    ],
    [{ format: 'steady-export', version: 1, goals: [{ ...good, sets: [] }] }, 'goals[0].sets'],
    [{ format: 'steady-export', version: 1, goals: [{ ...good, start: '2026-01-15' }] }, 'goals[0].start'],
    [{ format: 'steady-export', version: 1, goals: [{ ...good, name: '  ' }] }, 'goals[0].name'],
    [{ format: 'steady-export', version: 1, goals: [{ ...good, days: 1.5 }] }, 'goals[0].days'],
    [{ format: 'steady-export', version: 1, goals: [{ ...good, archived: true }] }, 'goals[0].archived'],
    [{ format: 'steady-export', version: 1, goals: [good, { ...good, position: -1 }] }, 'goals[1].position'],
    [{ format: 'steady-export', version: 1, goals: [{ ...good, position: 0.5 }] }, 'goals[0].position'],
    [{ format: 'steady-export', version: 1, goals: [{ ...good, archived_at: 'today' }] }, 'goals[0].archived_at'],
    [{ format: 'steady-export', version: 1, goals: [{ ...good, reminder: '08:00' }] }, 'goals[0].reminder'],
    [
      { format: 'steady-export', version: 1, goals: [{ ...good, reminder: { time: '24:00', channel: 'push' } }] },
      'goals[0].reminder.time',
    ],
    [
      { format: 'steady-export', version: 1, goals: [{ ...good, reminder: { time: '08:00', channel: 'sms' } }] },
      'goals[0].reminder.channel',
    ],
    [
      {
        format: 'steady-export',
        version: 1,
        goals: [{ ...good, reminder: { time: '08:00', channel: 'email', days: 'weekdays' } }],
      },
      'goals[0].reminder.days',
    ],
    [{ format: 'steady-export', version: 1, goals: [(({ unit: _u, ...rest }) => rest)(good)] }, 'goals[0].unit'],
    [{ format: 'steady-export', version: 1, goals: [{ ...good, created_at: 'yesterday' }] }, 'goals[0].created_at'],
    [{ format: 'steady-export', version: 2, goals: [good] }, 'version'],
    [{ format: 'loop-habits', version: 1, goals: [good] }, 'format'],
    [{ format: 'steady-export', version: 1, goals: {} }, 'goals'],
    [[good], 'body'],
  ];
  for (const [document, field, key] of cases) {
    const answer = await dora.post('/api/import', document);
    assert.equal(answer.status, 400, `${field}: ${answer.text}`);
    assert.equal(answer.body.code, 'invalid_import');
    assert.equal(answer.body.field, field);
    assert.ok(answer.body.error.startsWith(`${field}: `), answer.body.error);
    assert.equal(answer.body.key, key, `${field}: key`);
    assert.deepEqual(
      Object.keys(answer.body).sort(),
      key === undefined ? ['code', 'error', 'field'] : ['code', 'error', 'field', 'key'],
    );
  }
  assert.deepEqual(
    (await dora.get('/api/goals')).body.map((g: { name: string }) => g.name),
    ['Kept'],
  );
});

test('/api/import takes documents above 1 MB up to 20 MB; the goal routes keep 1 MB; each 413 names its limit', async () => {
  const emil = await newUser();
  // About 2.8 MB: forty goals with 3,000 dates each.
  const goal = { name: 'Big', unit: 'x', daily: 1, days: 3650, start: '2020-01-01 00:00:00', sets: longSets() };
  const doc = { format: 'steady-export', version: 1, goals: Array.from({ length: 40 }, () => goal) };
  assert.ok(JSON.stringify(doc).length > 2 * 1024 * 1024);
  const imported = await emil.post('/api/import', doc);
  assert.equal(imported.status, 200, imported.text.slice(0, 200));
  assert.equal((await emil.get('/api/goals')).body.length, 40);

  const tooBig = await emil.post('/api/import', JSON.stringify(doc).padEnd(21 * 1024 * 1024, ' '));
  assert.equal(tooBig.status, 413);
  assert.equal(tooBig.body.code, 'body_too_large');
  // Each 413 names its route's limit, the import's the number the web app names too (decision 0187).
  assert.equal(tooBig.body.max_bytes, IMPORT_BODY_LIMIT_BYTES);
  const goalTooBig = await emil.post('/api/goals', { name: 'x', sets: longSets(), pad: 'x'.repeat(1024 * 1024) });
  assert.equal(goalTooBig.status, 413);
  assert.equal(goalTooBig.body.max_bytes, 1024 * 1024);
  assert.equal((await emil.get('/api/goals')).body.length, 40);
});

test("a goal whose amounts are above one goal's cap imports nothing and is named: 400 goal_too_large with its field", async () => {
  const fay = await newUser();
  const sets: Record<string, number[]> = {};
  for (let day = 0; day < GOAL_LIMITS.setsDatesMax; day++) sets[addDays('2020-01-01', day)] = [123456.789, 987654.321];
  const goal = { name: 'A', unit: 'x', daily: 1, days: 30, start: '2026-01-15 09:00:00', sets: {} };
  const refused = await fay.post('/api/import', {
    format: 'steady-export',
    version: 1,
    goals: [goal, { ...goal, name: 'Full', sets }],
  });
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.code, 'goal_too_large');
  assert.equal(refused.body.field, 'goals[1].sets');
  assert.deepEqual((await fay.get('/api/goals')).body, []);
});

test('an import that would take the account past the goal cap imports nothing (400 too_many_goals)', async () => {
  const erin = await newUser();
  await erin.post('/api/goals', { name: 'Kept' });
  const goal = { name: 'A', unit: 'x', daily: 1, days: 30, start: '2026-01-15 09:00:00', sets: {} };
  const tooMany = {
    format: 'steady-export',
    version: 1,
    goals: Array.from({ length: GOAL_LIMITS.goalsPerUserMax }, () => goal),
  };
  const refused = await erin.post('/api/import', tooMany);
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.code, 'too_many_goals');
  assert.deepEqual(
    (await erin.get('/api/goals')).body.map((g: { name: string }) => g.name),
    ['Kept'],
  );

  const upToTheCap = { ...tooMany, goals: tooMany.goals.slice(1) };
  assert.deepEqual((await erin.post('/api/import', upToTheCap)).body, {
    ok: true,
    goals: GOAL_LIMITS.goalsPerUserMax - 1,
  });
  assert.equal((await erin.get('/api/goals')).body.length, GOAL_LIMITS.goalsPerUserMax);
});
