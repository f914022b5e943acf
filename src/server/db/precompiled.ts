import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { directStatementsFor } from './direct-statements.js';

/**
 * A query built and compiled once per database, then run with fresh parameter values. Kysely builds and
 * compiles a query on every call, which on the per-request session lookup costs twice as much as running it.
 *
 * The compiled query is kept per database adapter, which a database shares with its transactions (Kysely gives each
 * transaction an executor of its own, with the same adapter and compiler), so a query run inside a transaction is
 * compiled once as well. Plugins would change the SQL, so a database with plugins is refused.
 *
 * `build` receives placeholders and must pass each one to the query builder as a value; their positions in the
 * compiled SQL are found once, so callers bind by name and the order can never slip.
 *
 * On SQLite the statement runs on the connection directly when it may (`directStatementsFor`, decision 0124).
 */
export function precompiled<Params extends Record<string, unknown>, Row>(
  build: (db: Kysely<any>, params: Params) => Compilable<Row>,
): (db: Kysely<any>, params: Params) => Promise<Row[]> {
  const perAdapter = new WeakMap<object, { compiled: CompiledQuery<Row>; order: (keyof Params)[] }>();

  const prepare = (db: Kysely<any>, adapter: object) => {
    const placeholders = new Proxy({} as Params, { get: (_, name) => placeholder(String(name)) });
    const compiled = build(db, placeholders).compile();
    const order = compiled.parameters.map((value) => {
      const name = typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : undefined;
      if (name === undefined)
        throw new Error(`precompiled query has a value that is not a parameter: ${String(value)}`);
      return name as keyof Params;
    });
    const entry = { compiled, order };
    perAdapter.set(adapter, entry);
    return entry;
  };

  return async (db, params) => {
    const executor = db.getExecutor();
    if (executor.plugins.length > 0) throw new Error('precompiled queries do not take Kysely plugins');
    const { compiled, order } = perAdapter.get(executor.adapter) ?? prepare(db, executor.adapter);
    const parameters = order.map((name) => params[name]);
    const direct = directStatementsFor(db);
    if (direct) return direct.run(compiled.sql, parameters) as Row[];
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}

const MARK = '\u0000steady-param:';
const placeholder = (name: string) => `${MARK}${name}`;
