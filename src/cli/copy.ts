import { parseArgs } from 'node:util';
import { ConfigError, type DatabaseConfig, parseDatabaseUrl } from '../server/config.js';
import {
  type AnyDb,
  continueIdsAfterCopy,
  countRows,
  insertRows,
  listDataTables,
  readPages,
  readSnapshot,
} from '../server/db/copy-store.js';
import type { DialectName } from '../server/db/dialect.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { openDatabase } from '../server/db/open.js';
import { databaseAddress, unreachableDatabase } from '../server/db/unreachable.js';
import { BACKUP_RUNS_TABLE } from '../server/backup/store.js';
import { usageError, type Work } from './work.js';

/** Each table's name and the rows read of it from the source. */
type Copied = Array<[string, number]>;

/**
 * `steady copy --to <DATABASE_URL>`: everything from the configured database into an empty one, ids kept
 * (docs/decisions/0076-copy-between-databases.md). The source is read from one snapshot, so the copy may run while
 * the server writes; the target is filled and its counts checked in one transaction, so a refused copy leaves it
 * as empty as it was.
 */
export function copyCommand(args: string[]): Work {
  const { values } = parseArgs({ args, options: { to: { type: 'string' } }, strict: true, allowPositionals: false });
  if (!values.to?.trim()) throw usageError('give the target, e.g. --to postgres://user:pass@host:5432/steady');
  let targetConfig: DatabaseConfig;
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
      await migrateToLatest(target.db, target.dialect).catch((error: unknown) => {
        throw unreachableDatabase(targetConfig, '--to', error);
      });
      const copied = await target.db.transaction().execute(async (into) => {
        await refuseUnlessEmpty(into);
        const read = await readSnapshot(deps.db, source.kind, (from) => copyTables(from, into, target.dialect));
        await checkCounts(into, read);
        return read;
      });
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

async function refuseUnlessEmpty(target: AnyDb): Promise<void> {
  for (const table of await listDataTables(target)) {
    const rows = await countRows(target, table.name);
    if (rows > 0)
      throw new Error(`the target is not empty (${table.name} has ${rows} rows); copy only into an empty database`);
  }
}

/**
 * Every table of the source's snapshot into the target, a page of rows at a time (`readPages`). The days claimed and
 * backed up (`backup_runs`) stay behind: they tell of the source's backups, and a server on the target must write its
 * own from its first day, as a server restored from a backup does (decisions 0214, 0219).
 */
async function copyTables(from: AnyDb, into: AnyDb, intoDialect: DialectName): Promise<Copied> {
  const copied: Copied = [];
  for (const table of await listDataTables(from)) {
    let rows = 0;
    const pages = table.name === BACKUP_RUNS_TABLE ? [] : readPages(from, table);
    for await (const page of pages) {
      await insertRows(into, table, page);
      rows += page.length;
    }
    await continueIdsAfterCopy(into, intoDialect, table);
    copied.push([table.name, rows]);
  }
  return copied;
}

/**
 * What the target holds must be what was read, checked before the target's transaction commits: a difference
 * (rows a trigger of the target dropped, or another writer's rows) rolls the whole copy back.
 */
async function checkCounts(target: AnyDb, copied: Copied): Promise<void> {
  for (const [name, read] of copied) {
    const inTarget = await countRows(target, name);
    if (inTarget !== read)
      throw new Error(
        `counts differ for ${name}: read ${read} rows from the source, the target has ${inTarget}; nothing was copied`,
      );
  }
}

function describe(database: DatabaseConfig): string {
  return `${database.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${databaseAddress(database)}`;
}
