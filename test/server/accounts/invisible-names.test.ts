import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../../support/app.js';

/**
 * Names made only of characters that show as nothing are empty, and control characters inside a name become a space
 * (decision 0205), wherever a name is taken: registration, PATCH /api/me, goal create, PATCH and import, invite notes.
 */

let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const newUser = (name = '') => steady.register(`names${++emails}@example.com`, { name });

/** Zero width space, non-joiner, joiner, word joiner, BOM, soft hyphen, LRM, Hangul filler, blank braille. */
const INVISIBLE = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u200E', '\u3164', '\u2800'];

test('PATCH /api/me: a name of only invisible characters is empty (400 missing_field), the old name stays', async () => {
  const anna = await newUser('Anna');
  for (const name of [...INVISIBLE, INVISIBLE.join(''), ` \u200B\t\u2060\n `]) {
    const answer = await anna.patch('/api/me', { name });
    assert.equal(answer.status, 400, JSON.stringify(name));
    assert.deepEqual(answer.body, { error: 'name must not be empty', code: 'missing_field', field: 'name' });
  }
  assert.equal((await anna.get('/api/me')).body.name, 'Anna');
});

test('PATCH /api/me: invisible characters at the ends go, control characters inside become one space', async () => {
  const anna = await newUser('Anna');
  const cases: Array<[string, string]> = [
    ['\u200BAnna\u200D\u2060\uFEFF', 'Anna'],
    ['Anna\nMaria', 'Anna Maria'],
    ['Anna\r\nMaria\u0007', 'Anna Maria'],
    ['Anna\tMaria\u0085\u007F', 'Anna Maria'],
    ['Anna\u2028Maria', 'Anna Maria'],
    // Kept: a joiner inside (an emoji family), a variation selector after the last visible character (❤️).
    ['Anna 👩‍👩‍👧 ❤️\u200B', 'Anna 👩‍👩‍👧 ❤️'],
  ];
  for (const [name, stored] of cases) {
    const answer = await anna.patch('/api/me', { name });
    assert.deepEqual(answer.body, { ok: true, name: stored }, JSON.stringify(name));
    assert.equal((await anna.get('/api/me')).body.name, stored);
  }
});

test('register: an invisible name is no name (""), a newline inside becomes a space', async () => {
  const ben = await newUser('\u200B\u2060\uFEFF');
  assert.equal((await ben.get('/api/me')).body.name, '');
  const cara = await newUser('Cara\r\nBcc: x@example.org');
  assert.equal((await cara.get('/api/me')).body.name, 'Cara Bcc: x@example.org');
});

test('goals: an invisible name is refused on create and PATCH, an invisible unit is the default, lines become spaces', async () => {
  const dora = await newUser();
  for (const name of [...INVISIBLE, INVISIBLE.join('')]) {
    const answer = await dora.post('/api/goals', { name });
    assert.equal(answer.status, 400, JSON.stringify(name));
    assert.deepEqual(answer.body, { error: 'name must not be empty', code: 'missing_field', field: 'name' });
  }
  assert.deepEqual((await dora.get('/api/goals')).body, []);

  const created = await dora.post('/api/goals', { name: 'Run\n5 km\t', unit: '\u200B\u2060' });
  assert.equal(created.status, 200, created.text);
  const id = created.body.id as string;
  const stored = async () => ((await dora.get('/api/goals')).body as Array<{ name: string; unit: string }>)[0]!;
  assert.deepEqual([(await stored()).name, (await stored()).unit], ['Run 5 km', 'Stück']);

  const refused = await dora.patch(`/api/goals/${id}`, { name: '\uFEFF\u200B' });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.code, 'missing_field');
  assert.equal((await stored()).name, 'Run 5 km');

  assert.equal((await dora.patch(`/api/goals/${id}`, { name: 'Read\r\nbooks', unit: 'pages\u0085' })).status, 200);
  assert.deepEqual([(await stored()).name, (await stored()).unit], ['Read books', 'pages']);
});

test('import: a name or unit with a newline is imported on one line; an invisible name is refused as empty', async () => {
  const emil = await newUser();
  const goal = { name: 'Read\r\nbooks', unit: 'pages\n', daily: 1, days: 30, start: '2026-01-15 09:00:00', sets: {} };
  const imported = await emil.post('/api/import', { format: 'steady-export', version: 1, goals: [goal] });
  assert.equal(imported.status, 200, imported.text);
  const goals = (await emil.get('/api/goals')).body as Array<{ name: string; unit: string }>;
  assert.deepEqual(
    goals.map((g) => [g.name, g.unit]),
    [['Read books', 'pages']],
  );

  const invisible = { ...goal, name: '\u200B\u200D' };
  const refused = await emil.post('/api/import', { format: 'steady-export', version: 1, goals: [goal, invisible] });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.code, 'invalid_import');
  assert.equal(refused.body.field, 'goals[1].name');
  assert.equal((await emil.get('/api/goals')).body.length, 1, 'nothing of the refused file is stored');
});

test('an invite note is cleaned as names are: invisible only is no note, a newline becomes a space', async () => {
  const fritz = await newUser();
  assert.equal((await fritz.post('/api/invite', { note: '\u200B\u2060' })).status, 200);
  assert.equal((await fritz.post('/api/invite', { note: 'for\nGreta\u200B' })).status, 200);
  const notes = ((await fritz.get('/api/invites')).body as Array<{ note: string | null }>).map((i) => i.note);
  assert.deepEqual(notes.sort(), ['for Greta', null]);
});

test('a goal name stored with a newline before this rule is one line in the CSV export', async () => {
  const hans = await newUser();
  const created = await hans.post('/api/goals', { name: 'Old', unit: 'x', sets: { '2026-01-03': [5] } });
  // As a row written before decision 0205 may be.
  await steady.deps.db
    .updateTable('goals')
    .set({ name: 'Old\r\nname', unit: 'km\n' })
    .where('id', '=', Number(created.body.id))
    .execute();
  const csv = await hans.get('/api/export.csv');
  assert.equal(csv.text, `\uFEFFgoal_id,goal,unit,date,amount\r\n${created.body.id},"Old name","km",2026-01-03,5\r\n`);
  // The JSON export is the account's copy: it keeps the row as stored, and its import cleans it.
  assert.equal((await hans.get('/api/export')).body.goals[0].name, 'Old\r\nname');
});
