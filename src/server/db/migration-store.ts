import { DEFAULT_MIGRATION_TABLE, type Kysely, sql } from 'kysely';

/** The names of the migrations Kysely's bookkeeping says were applied to `db`; none before the first migration. */
export async function appliedMigrationNames(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE)) return [];
  const rows = await db.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute();
  return rows.map((row) => String(row.name));
}

/**
 * SQLite: begins a write transaction (`BEGIN IMMEDIATE`, which takes the write lock at once) without waiting for the
 * lock: `taken: false` while another connection holds it. `busyTimeoutMs` is the connection's own busy wait, set back
 * after. A taken lock is held until `endSqliteTransaction`.
 */
export async function beginImmediateAtOnce(
  db: Kysely<any>,
): Promise<{ taken: true } | { taken: false; error: unknown; busyTimeoutMs: number }> {
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
  const busyTimeoutMs = rows[0]!.timeout;
  await sql`pragma busy_timeout = 0`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    return { taken: true };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return { taken: false, error, busyTimeoutMs };
    throw error;
  } finally {
    await sql.raw(`pragma busy_timeout = ${busyTimeoutMs}`).execute(db);
  }
}

/** SQLite: ends the transaction `beginImmediateAtOnce` began. */
export async function endSqliteTransaction(db: Kysely<any>, end: 'commit' | 'rollback'): Promise<void> {
  await sql.raw(end).execute(db);
}
