import { parseArgs } from 'node:util';
import { ConfigError, parseDatabaseUrl } from '../server/config.js';
import { continueIdsAfterCopy, countRows, insertRows, listDataTables, readRows } from '../server/db/copy-store.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { openDatabase } from '../server/db/open.js';
import { usageError, type Work } from './work.js';

/**
 * `steady copy --to <DATABASE_URL>`: everything from the configured database into an empty one, ids kept, in one
 * transaction of the target, then the counts are compared (docs/decisions/0076-copy-between-databases.md).
 */
export function copyCommand(args: string[]): Work {
  const { values } = parseArgs({ args, options: { to: { type: 'string' } }, strict: true, allowPositionals: false });
  if (!values.to?.trim()) throw usageError('give the target, e.g. --to postgres://user:pass@host:5432/steady');
  let targetConfig: ReturnType<typeof parseDatabaseUrl>;
  try {
    targetConfig = parseDatabaseUrl(values.to.trim());
  } catch (error) {
    if (error instanceof ConfigError) throw usageError(`--to ${error.message.replace(/^DATABASE_URL: /, '')}`);
    throw error;
  }
  return async ({ deps, io }) => {
    const source = deps.config.database;
    if (JSON.stringify(source) === JSON.stringify(targetConfig))
      throw new Error('the target is the configured database itself');
    const target = await openDatabase(targetConfig);
    try {
      await migrateToLatest(target.db, target.dialect);
      const tables = await listDataTables(deps.db);
      for (const table of await listDataTables(target.db)) {
        const rows = await countRows(target.db, table.name);
        if (rows > 0)
          throw new Error(`the target is not empty (${table.name} has ${rows} rows); copy only into an empty database`);
      }
      const copied: Array<[string, number]> = [];
      await target.db.transaction().execute(async (trx) => {
        for (const table of tables) {
          const rows = await readRows(deps.db, table);
          await insertRows(trx, table, rows);
          await continueIdsAfterCopy(trx, target.dialect, table);
          copied.push([table.name, rows.length]);
        }
      });
      for (const [name, expected] of copied) {
        const [inSource, inTarget] = [await countRows(deps.db, name), await countRows(target.db, name)];
        if (inTarget !== expected || inSource !== expected) {
          throw new Error(`counts differ for ${name}: copied ${expected}, source now ${inSource}, target ${inTarget}`);
        }
      }
      const total = copied.reduce((sum, [, n]) => sum + n, 0);
      for (const [name, n] of copied) io.out(`${name.padEnd(18)} ${n}`);
      io.out(
        `Copied ${total} rows in ${copied.length} tables from ${describe(source)} to ${describe(targetConfig)}; the counts match.`,
      );
      io.out(
        'Start the server with DATABASE_URL set to the target and the same SECRET_KEY (or secret.key), so pending invite links keep working.',
      );
    } finally {
      await target.close();
    }
  };
}

function describe(database: ReturnType<typeof parseDatabaseUrl>): string {
  return database.kind === 'sqlite'
    ? `SQLite ${database.file}`
    : `PostgreSQL ${new URL(database.url).host}${new URL(database.url).pathname}`;
}
