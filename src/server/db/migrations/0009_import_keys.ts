import type { Kysely } from 'kysely';
import { type DialectName, timestampType } from '../dialect.js';

/**
 * The `Idempotency-Key`s of a user's recent imports (docs/decisions/0127-idempotent-import.md): an import retried
 * after its answer was lost is recognised and not added twice. `document_hash` is the SHA-256 of the request body,
 * so a key sent again with another document is refused; `goals` is the first answer's count.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('import_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('document_hash', 'text', (c) => c.notNull())
    .addColumn('goals', 'integer', (c) => c.notNull())
    .addColumn('created_at', timestampType(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('import_keys_pk', ['user_id', 'key'])
    .execute();
}
