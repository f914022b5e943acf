import { type Compilable, type SelectQueryBuilder, sql } from 'kysely';

/**
 * A select whose rows the drivers hand back as arrays of column values instead of objects (decision 0120).
 * better-sqlite3 builds a row object in C++ at about twice the cost of an array; on a goal list of 2,700 amounts
 * that was 1.8 of the read's 4.2 ms. pg's `rowMode: 'array'` does the same for PostgreSQL. The mark travels in the
 * SQL text, which is what both drivers see (db/open.ts), so the same SQL without it still gives objects.
 */
const MARK = '/* steady: rows as arrays */';

export function isArrayRowsSql(text: string): boolean {
  return text.startsWith(`select ${MARK}`);
}

/**
 * Runs `query` and gives its rows as arrays, the columns in the order `query` selects them. `Row` must spell that
 * order: the type system cannot check it, so keep the select and the tuple side by side.
 */
export async function selectArrayRows<Row extends readonly unknown[]>(
  query: SelectQueryBuilder<any, any, any>,
): Promise<Row[]> {
  return (await marked(query).execute()) as unknown as Row[];
}

/** `query` giving its rows as arrays, for a precompiled query (db/precompiled.ts); `Row` as for selectArrayRows. */
export function arrayRowsQuery<Row extends readonly unknown[]>(
  query: SelectQueryBuilder<any, any, any>,
): Compilable<Row> {
  return marked(query) as unknown as Compilable<Row>;
}

const marked = (query: SelectQueryBuilder<any, any, any>) => query.modifyFront(sql.raw(MARK));
