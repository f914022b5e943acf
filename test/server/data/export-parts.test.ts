import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CSV_PART_CHARS, exportCsv } from '../../../src/server/data/export.js';
import type { StoredGoal } from '../../../src/server/data/store.js';

// Decision 0224: the CSV export built each goal's rows as one string. A goal of 60,000 amounts was a 2.2 MB part, and
// the array of its rows beside it; an export of ten of them took 33-34 MB of heap above its start instead of 12-16
// MB, and once, in CI, ran a server with a 64 MB heap out of memory (test/server/goals/list-memory.test.ts).

test("the CSV export of a goal's 60,000 amounts comes in parts of about 64 kB, together the whole file", async () => {
  const dates = Array.from({ length: 60 }, (_, day) => new Date(Date.UTC(2020, 0, 1 + day)).toISOString().slice(0, 10));
  const goal: StoredGoal = {
    id: 7,
    name: 'Push-ups',
    unit: 'reps',
    daily: 50,
    days: 60,
    start: '2020-01-01',
    created_at: 0,
    updated_at: 0,
    position: null,
    archived_at: null,
    reminder: null,
    sets: Object.fromEntries(dates.map((date) => [date, Array.from({ length: 1000 }, (_, i) => (i % 9) + 1.5)])),
  };
  async function* oneGoal() {
    yield goal;
  }
  const parts: string[] = [];
  for await (const part of exportCsv(oneGoal(), { separator: ';', decimalMark: ',' })) parts.push(part);

  const rows = parts.join('').split('\r\n');
  const longestRow = Math.max(...rows.map((row) => row.length + 2));
  for (const part of parts) assert.ok(part.length < CSV_PART_CHARS + longestRow, `a part of ${part.length} characters`);
  assert.equal(rows.length, 1 + 60_000 + 1, 'header, rows, final CRLF');
  assert.equal(rows[1], '7;"Push-ups";"reps";2020-01-01;1,5');
  assert.equal(rows.at(-2), '7;"Push-ups";"reps";2020-02-29;1,5');
});
