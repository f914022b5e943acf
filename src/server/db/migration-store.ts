import { DEFAULT_MIGRATION_TABLE, type Kysely } from 'kysely';

/** The names of the migrations Kysely's bookkeeping says were applied to `db`; none before the first migration. */
export async function appliedMigrationNames(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE)) return [];
  const rows = await db.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute();
  return rows.map((row) => String(row.name));
}
