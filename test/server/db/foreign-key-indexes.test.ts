import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openTestDatabase, type OpenTestDatabase } from '../../support/database.js';

// Decision 0136: every foreign key can be followed through an index. Without one, deleting the parent row (its
// ON DELETE action, and Steady's explicit deletes by the same column) reads the whole child table: deleting a goal
// took 169 ms among 1.3 million amounts on SQLite, blocking every request meanwhile.

interface ForeignKey {
  table: string;
  column: string;
}

/** Each foreign key's table and column, and the leading columns of the indexes that cover every row of a table. */
async function foreignKeysAndIndexes(database: OpenTestDatabase) {
  const { db } = database;
  if (database.dialect === 'sqlite') {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    const keys: ForeignKey[] = [];
    const leading = new Map<string, Set<string>>();
    for (const { name } of tables.rows) {
      const pragma = <Row>(text: string) => sql<Row>`select * from ${sql.raw(`pragma_${text}`)}(${name})`.execute(db);
      for (const key of (await pragma<{ from: string }>('foreign_key_list')).rows)
        keys.push({ table: name, column: key.from });
      const columns = new Set<string>();
      for (const index of (await pragma<{ name: string; partial: number }>('index_list')).rows) {
        if (index.partial) continue;
        const info = await sql<{ seqno: number; name: string }>`select * from pragma_index_info(${index.name})`.execute(
          db,
        );
        columns.add(info.rows.find((column) => column.seqno === 0)!.name);
      }
      const primaryKey = (await pragma<{ name: string; pk: number }>('table_info')).rows.find(
        (column) => column.pk === 1,
      );
      if (primaryKey) columns.add(primaryKey.name);
      leading.set(name, columns);
    }
    return { keys, leading };
  }
  const keys = await sql<ForeignKey>`select c.conrelid::regclass::text as "table", a.attname as "column"
    from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'f' and c.connamespace = 'public'::regnamespace`.execute(db);
  const indexes = await sql<{ table: string; column: string }>`select i.indrelid::regclass::text as "table",
      a.attname as "column"
    from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
    join pg_class t on t.oid = i.indrelid
    where i.indpred is null and t.relnamespace = 'public'::regnamespace`.execute(db);
  const leading = new Map<string, Set<string>>();
  for (const index of indexes.rows) leading.set(index.table, (leading.get(index.table) ?? new Set()).add(index.column));
  return { keys: keys.rows, leading };
}

test('every foreign key column leads an index over all of its rows', async () => {
  const database = await openTestDatabase();
  try {
    const { keys, leading } = await foreignKeysAndIndexes(database);
    assert.ok(
      keys.some((key) => key.table === 'goal_entries' && key.column === 'goal_id'),
      'the schema was read',
    );
    const unindexed = keys.filter((key) => !leading.get(key.table)?.has(key.column));
    assert.deepEqual(unindexed, [], 'foreign keys whose parent row is deleted by reading the whole table');
  } finally {
    await database.closeAndDrop();
  }
});

test("deleting a goal finds the goal's entries through an index", async () => {
  const database = await openTestDatabase();
  const { db } = database;
  try {
    if (database.dialect === 'sqlite') {
      // The plan of the goal's row includes the ON DELETE actions of every table that refers to goals.
      const plan = await sql<{ detail: string }>`explain query plan delete from goals where id = 1`.execute(db);
      const details = plan.rows.map((row) => row.detail);
      assert.ok(
        details.some((detail) => detail.includes('goal_entries')),
        details.join('\n'),
      );
      assert.deepEqual(
        details.filter((detail) => detail.startsWith('SCAN')),
        [],
      );
    } else {
      // On an empty table PostgreSQL would read the table anyway; without sequential scans it shows what it can use.
      await db.connection().execute(async (connection) => {
        await sql`set enable_seqscan = off`.execute(connection);
        const plan = await sql<{ 'QUERY PLAN': string }>`explain delete from goal_entries where goal_id = 1`.execute(
          connection,
        );
        const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        assert.match(text, /Index|Bitmap/, text);
        assert.doesNotMatch(text, /Seq Scan/, text);
        await sql`reset enable_seqscan`.execute(connection);
      });
    }
  } finally {
    await database.closeAndDrop();
  }
});
