import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database } from '../../../src/server/db/schema.js';
import { ENTRIES_PER_READ, entryPartQuery, entryParts, type EntryTuple } from '../../../src/server/goals/store.js';
import { createTestApp } from '../../support/app.js';

// A long history is read in parts of ENTRIES_PER_READ rows (store.ts), so no statement nears PostgreSQL's query
// timeout. Any part size must give the same rows in the same order, across goals, dates and `[]` dates alike.
test('a goal list read in parts of any size equals the list read at once', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const other = await steady.register('bob@example.com');
  const goalIds: string[] = [];
  for (const [i, sets] of [
    { '2026-01-01': [5, 5], '2026-01-02': [], '2026-01-03': [1.5, 2, 3] },
    {},
    { '2026-02-01': [7], '2026-02-02': [8, 9, 10, 11], '2026-02-03': [] },
  ].entries()) {
    goalIds.push((await anna.post('/api/goals', { name: `Goal ${i}`, sets })).body.id);
    // Another user's goal between Anna's: her list reads her goals only, whatever their ids.
    if (i === 0) await other.post('/api/goals', { name: 'Between', sets: { '2026-01-01': [42] } });
  }
  await anna.post(`/api/goals/${goalIds[0]}/sets/2026-01-02`, { amount: 4 });
  await anna.post(`/api/goals/${goalIds[0]}/sets/2026-01-01`, { amount: 6 });
  await other.post('/api/goals', { name: 'Not Anna', sets: { '2026-01-01': [99] } });

  const annaId = (
    await steady.deps.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'anna@example.com')
      .executeTakeFirstOrThrow()
  ).id;
  const whole = await readInParts(steady.deps.db, annaId, ENTRIES_PER_READ);
  assert.equal(whole.length, 1, 'one part when the entries fit');
  assert.equal(whole[0]!.length, 13, 'twelve amounts and one [] date, in two of the three goals');
  for (const perRead of [1, 2, 3, 5, 12, 13, 14]) {
    const parts = await readInParts(steady.deps.db, annaId, perRead);
    assert.ok(
      parts.every((part) => part.length > 0 && part.length <= perRead),
      `no part of ${perRead} is empty or larger`,
    );
    assert.deepEqual(parts.flat(), whole[0], `parts of ${perRead}`);
  }
  const sets = (await anna.get('/api/goals')).body.map((goal: { sets: unknown }) => goal.sets);
  assert.deepEqual(sets, [
    { '2026-01-01': [5, 5, 6], '2026-01-02': [4], '2026-01-03': [1.5, 2, 3] },
    {},
    { '2026-02-01': [7], '2026-02-02': [8, 9, 10, 11], '2026-02-03': [] },
  ]);
});

test('other work runs between the parts of a list read, not only after the last one', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  await anna.post('/api/goals', {
    name: 'Run',
    sets: { '2026-01-01': [1, 2], '2026-01-02': [3, 4], '2026-01-03': [5] },
  });
  const { id: annaId } = await steady.deps.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'anna@example.com')
    .executeTakeFirstOrThrow();

  // Another request's callback, waiting for its turn of the event loop while the list is read in three parts.
  const events: string[] = [];
  setImmediate(() => events.push('other work'));
  for await (const part of entryParts(steady.deps.db, annaId, 2)) events.push(`part of ${part.length}`);
  assert.equal(events.filter((event) => event.startsWith('part')).length, 3);
  const otherWork = events.indexOf('other work');
  assert.ok(
    otherWork !== -1 && otherWork < events.lastIndexOf('part of 1'),
    `other work waited for the whole list: ${events.join(', ')}`,
  );
});

async function readInParts(db: Kysely<Database>, userId: number, perRead: number) {
  const parts = [];
  for await (const part of entryParts(db, userId, perRead)) parts.push(part);
  return parts;
}

test("SQLite keeps no index of a user's entries and reads the list through the goals, in order, without sorting (decision 0218)", async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const { db } = steady.deps;
  if (steady.deps.config.database.kind === 'postgres') {
    const pg = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where tablename = 'goal_entries'`.execute(db);
    assert.ok(
      pg.rows.some((row) => row.indexname === 'goal_entries_user'),
      'PostgreSQL keeps it for its planner',
    );
    return;
  }
  const indexes = await sql<{ name: string }>`select name from pragma_index_list('goal_entries') order by name`.execute(
    db,
  );
  assert.deepEqual(
    indexes.rows.map((row) => row.name),
    ['goal_entries_entry_id', 'goal_entries_goal_date'],
  );
  for (const after of [undefined, [3, '2026-01-02', 17, 1] as EntryTuple]) {
    const compiled = entryPartQuery(db, 1, after, ENTRIES_PER_READ).compile();
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    const details = plan.rows.map((row) => row.detail);
    assert.ok(
      details.some((detail) => detail.startsWith('SEARCH goal_entries USING INDEX goal_entries_goal_date')),
      details.join('\n'),
    );
    assert.ok(!details.some((detail) => /TEMP B-TREE|SCAN goal_entries/.test(detail)), details.join('\n'));
  }
});
