import { type Kysely, type Migration, Migrator } from 'kysely';
import type { DialectName } from './dialect.js';
import { migrations } from './migrations/index.js';

/** Applies every pending migration; throws (and applies nothing further) on the first failure. */
export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: {
      // Migrations are listed in code (not read from a folder) so they work from `src/` and `dist/` alike.
      async getMigrations() {
        const bound: Record<string, Migration> = {};
        for (const [name, migration] of Object.entries(migrations)) {
          bound[name] = { up: (trx) => migration.up(trx, dialect) };
        }
        return bound;
      },
    },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
