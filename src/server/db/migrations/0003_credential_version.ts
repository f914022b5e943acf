import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * A counter on users that every credential change (password change, reset, "log out everywhere", deletion)
 * increases, copied into each session and remember-me token at issue: a login is valid only while its copy
 * equals the user's (docs/decisions/0060-credential-version.md).
 */
export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  for (const table of ['users', 'sessions', 'remember_tokens']) {
    await db.schema.alterTable(table).addColumn('credential_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  }
}
