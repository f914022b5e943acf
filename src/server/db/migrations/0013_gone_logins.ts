import type { Kysely } from 'kysely';
import { type DialectName, timestampType } from '../dialect.js';

/**
 * `gone_logins`: the token hashes of a deleted account's sessions (`sessions.token_hash`) and remember-me tokens
 * (`remember_tokens.validator_hash`), each until the token would have expired, so another device of that account
 * hears "account deleted" instead of "not logged in" (docs/decisions/0198-a-deleted-account-tells-its-other-devices.md).
 * Nothing else of the account is kept: no user id, no e-mail.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('gone_logins')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', timestampType(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gone_logins_expires_at').on('gone_logins').column('expires_at').execute();
}
