import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goalDateKey } from '../../../src/server/reminders/goal-day-store.js';
import { findSends, insertSendClaim } from '../../../src/server/reminders/store.js';
import { createTestApp } from '../../support/app.js';

test('the sends of more due goals than one statement may bind are all found, in parts', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const { db } = steady.deps;
  const ids: number[] = [];
  for (const name of ['Walk', 'Read', 'Swim']) {
    const created = await anna.post('/api/goals', { name, unit: 'x', daily: 10, days: 30, start: '2026-01-10' });
    ids.push(Number(created.body.id));
  }
  const me = await anna.get('/api/me');
  const userId = Number(me.body.id);
  const claimed = [
    { goal_id: ids[0]!, local_date: '2026-01-15' },
    { goal_id: ids[2]!, local_date: '2026-01-16' },
  ];
  for (const claim of claimed) {
    assert.ok(await insertSendClaim(db, { ...claim, user_id: userId, channel: 'email' }, Date.now()));
  }
  const expected = new Set(claimed.map((claim) => goalDateKey(claim.goal_id, claim.local_date)));
  const dates = ['2026-01-15', '2026-01-16'];

  // More ids than either engine binds in one statement (SQLite 32,766, PostgreSQL 65,535): one `in` list of them
  // all is refused.
  const unknown = Array.from({ length: 70_000 }, (_, i) => 1_000_000 + i);
  assert.deepEqual(
    await findSends(db, [...unknown.slice(0, 35_000), ...ids, ...unknown.slice(35_000)], dates),
    expected,
  );
  assert.deepEqual(await findSends(db, ids, dates, 1), expected, 'one goal a statement');
  assert.deepEqual(await findSends(db, [ids[1]!], dates), new Set(), 'a goal with no send');
  assert.deepEqual(await findSends(db, [], dates), new Set());
});
