import { type Kysely, sql } from 'kysely';
import type { DialectName } from './dialect.js';
import { inParts } from './parts.js';

/**
 * Whole-table reads and writes for `steady copy`, by table name, so tables added by later migrations are copied
 * without changes here. Only the migration bookkeeping of Kysely is left out: the target is migrated by itself.
 */

export type AnyDb = Kysely<any>;
export type Row = Record<string, unknown>;

export interface DataTable {
  name: string;
  columns: string[];
  hasId: boolean;
}

/** Tables other tables refer to, in the order they must be filled: `goal_entries` refers to `goals`. */
const PARENTS_FIRST = ['users', 'goals'];
const fillOrder = (name: string) => {
  const index = PARENTS_FIRST.indexOf(name);
  return index === -1 ? PARENTS_FIRST.length : index;
};

/** Every table with data, each after the tables it refers to (`users`, then `goals`, then the rest by name). */
export async function listDataTables(db: AnyDb): Promise<DataTable[]> {
  const tables = (await db.introspection.getTables())
    .filter((table) => !table.name.startsWith('kysely_'))
    .map((table) => ({
      name: table.name,
      columns: table.columns.map((column) => column.name),
      hasId: table.columns.some((column) => column.name === 'id'),
    }));
  return tables.sort((a, b) => fillOrder(a.name) - fillOrder(b.name) || a.name.localeCompare(b.name));
}

/**
 * Runs `work` on one snapshot of `db`, so that tables read one after the other agree with each other while a server
 * goes on writing. PostgreSQL: a read-only REPEATABLE READ transaction, whose snapshot is taken by its first
 * statement. SQLite: a (deferred) transaction on the one connection, whose first read pins the WAL snapshot;
 * writers of other connections go on beside it, as WAL never makes them wait for a reader.
 */
export function readSnapshot<T>(db: AnyDb, dialect: DialectName, work: (snapshot: AnyDb) => Promise<T>): Promise<T> {
  const transaction = db.transaction();
  const consistent =
    dialect === 'postgres' ? transaction.setIsolationLevel('repeatable read').setAccessMode('read only') : transaction;
  return consistent.execute(work);
}

export async function countRows(db: AnyDb, table: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** All rows of a table in a stable order (by id, else by every column), for copying and comparing. */
export async function readRows(db: AnyDb, table: DataTable): Promise<Row[]> {
  let query = db.selectFrom(table.name).selectAll();
  for (const column of table.hasId ? ['id'] : table.columns) query = query.orderBy(column);
  return query.execute();
}

/** Both engines bound the parameters of one statement (SQLite 32,766, PostgreSQL 65,535). */
const PARAMETERS_PER_STATEMENT = 30_000;

const rowsPerStatement = (table: DataTable) => Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / table.columns.length));

/**
 * A table's rows in id order, in pages of one insert statement's worth, each read by a statement of its own that
 * starts after the last id of the page before. However large the table, no statement reads more than a page, so
 * none runs into the request deadlines (a whole `goal_entries` can take longer than PostgreSQL's 5 s), and only a
 * page is in memory (decision 0173). Inside `readSnapshot` the pages come from one snapshot. A table without an id
 * holds at most a row per user, goal or day and comes whole, as one page.
 */
export async function* readPages(db: AnyDb, table: DataTable): AsyncGenerator<Row[]> {
  if (!table.hasId) {
    yield await readRows(db, table);
    return;
  }
  const size = rowsPerStatement(table);
  let after: unknown = null;
  for (;;) {
    let query = db.selectFrom(table.name).selectAll().orderBy('id').limit(size);
    if (after !== null) query = query.where('id', '>', after);
    const page = await query.execute();
    if (page.length > 0) yield page;
    if (page.length < size) return;
    after = page.at(-1)!.id;
  }
}

export async function insertRows(db: AnyDb, table: DataTable, rows: Row[]): Promise<void> {
  for (const part of inParts(rows, rowsPerStatement(table))) {
    await db.insertInto(table.name).values(part).execute();
  }
}

/**
 * After rows were inserted with their ids, PostgreSQL's identity sequence must continue after the largest one
 * (SQLite's AUTOINCREMENT follows explicit ids by itself).
 */
export async function continueIdsAfterCopy(db: AnyDb, dialect: DialectName, table: DataTable): Promise<void> {
  if (dialect !== 'postgres' || !table.hasId) return;
  await sql`select setval(pg_get_serial_sequence(${table.name}, 'id'), coalesce((select max(id) from ${sql.table(table.name)}), 0) + 1, false)`.execute(
    db,
  );
}
