import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { openDatabase } from '../../../src/server/db/open.js';
import { createTestDatabase } from '../../support/database.js';

// PostgreSQL only (decision 0111): SQLite has its own statement cache (decision 0035).
test('on PostgreSQL the app names its statements, so a connection prepares each text once; migrations do not', async (t) => {
  const database = await createTestDatabase('postgres');
  t.after(() => database.drop());
  const prepared = async (patient: boolean) => {
    // One connection, so the catalogue query sees what the same session prepared.
    const handle = await openDatabase(parseDatabaseUrl(database.url, 1), { patient });
    try {
      for (let i = 0; i < 3; i++) await sql`select ${i}::int as one`.execute(handle.db);
      const { rows } = await sql<{ name: string; statement: string }>`
        select name, statement from pg_prepared_statements order by name`.execute(handle.db);
      // The catalogue query is prepared (named) before it runs, so it lists itself.
      return rows.filter((row) => !row.statement.includes('pg_prepared_statements'));
    } finally {
      await handle.close();
    }
  };
  const named = await prepared(false);
  assert.deepEqual(
    named.map((row) => row.statement),
    ['select $1::int as one'],
    'one prepared statement for three runs of one text',
  );
  assert.match(named[0]!.name, /^steady_\d+$/);
  assert.deepEqual(await prepared(true), [], 'a patient (migration) handle prepares nothing by name');
});
