import assert from 'node:assert/strict';
import { type Kysely, type Migration, Migrator } from 'kysely';
import { migrations } from '../../src/server/db/migrations/index.js';
import type { DialectName } from '../../src/server/db/dialect.js';

/**
 * Applies the released migrations named before `firstLeftOut` (e.g. '0006'), as a database of that older version
 * had them, so a test can store rows in the old form and then start the app on it.
 */
export async function migrateToBefore(db: Kysely<any>, dialect: DialectName, firstLeftOut: string): Promise<void> {
  const older = Object.entries(migrations).filter(([name]) => name < firstLeftOut);
  const migrator = new Migrator({
    db,
    provider: {
      async getMigrations() {
        const bound: Record<string, Migration> = {};
        for (const [name, migration] of older) bound[name] = { up: (db) => migration.up(db, dialect) };
        return bound;
      },
    },
  });
  const { error } = await migrator.migrateToLatest();
  assert.equal(error, undefined);
}
