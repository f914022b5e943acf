import { type Kysely, sql } from 'kysely';
import type { DialectName } from './dialect.js';

/**
 * Whole-table reads and writes for `steady copy`, by table name, so tables added by later migrations are copied
 * without changes here. Only the migration bookkeeping of Kysely is left out: the target is migrated by itself.
 */

type AnyDb = Kysely<any>;
export type Row = Record<string, unknown>;

export interface DataTable {
  name: string;
  columns: string[];
  hasId: boolean;
}

/** Every table with data, `users` first and `goals` second: the others refer to them (and to nothing else). */
export async function listDataTables(db: AnyDb): Promise<DataTable[]> {
  const tables = (await db.introspection.getTables())
    .filter((table) => !table.name.startsWith('kysely_'))
    .map((table) => ({
      name: table.name,
      columns: table.columns.map((column) => column.name),
      hasId: table.columns.some((column) => column.name === 'id'),
    }));
  const rank = (name: string) => (name === 'users' ? 0 : name === 'goals' ? 1 : 2);
  return tables.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
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

export async function insertRows(db: AnyDb, table: DataTable, rows: Row[]): Promise<void> {
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / table.columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    await db
      .insertInto(table.name)
      .values(rows.slice(start, start + perStatement))
      .execute();
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
