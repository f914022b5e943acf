import { type Kysely, sql } from 'kysely';
import { type DialectName, timestampType } from '../dialect.js';

/**
 * `import_keys` becomes `request_keys` (docs/decisions/0130-idempotent-goal-creation.md): the `Idempotency-Key`s of
 * a user's recent imports and goal creations, each kind of request in a `scope` of its own. `result` is what the
 * first request did (an import: the number of goals added; a goal creation: the new goal's id). The import keys
 * kept so far move over, so a retry in flight during the upgrade is still recognised.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('request_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('request_keys_pk', ['user_id', 'scope', 'key'])
    .execute();
  await db
    .insertInto('request_keys')
    .columns(['user_id', 'scope', 'key', 'body_hash', 'result', 'created_at'])
    .expression(
      db
        .selectFrom('import_keys')
        .select(['user_id', sql.lit('import').as('scope'), 'key', 'document_hash', 'goals', 'created_at']),
    )
    .execute();
  await db.schema.dropTable('import_keys').execute();
}
