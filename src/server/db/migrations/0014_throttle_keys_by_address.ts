import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../dialect.js';

/** The rule's prefix as keys held it when this migration was written; `;` follows `:`. */
const PREFIX = 'resetMailPerClientAndEmail:';
const AFTER_PREFIX = 'resetMailPerClientAndEmail;';

/**
 * Account deletion finds an address's per-client reset buckets as one range of `throttle_buckets.key` (decision
 * 0207). On PostgreSQL the key compares byte by byte ("C"), as SQLite's BINARY does, so a range of keys is the keys
 * that start alike whatever the database's collation; and the `resetMailPerClientAndEmail` buckets name the e-mail
 * address first: `<client> <email>` becomes `<email> <client>` (the client key has no space), so a limit reached
 * before the upgrade holds after it.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table throttle_buckets alter column key type text collate "C"`.execute(db);
  }
  const rows: { key: string }[] = await db
    .selectFrom('throttle_buckets')
    .select('key')
    .where('key', '>=', PREFIX)
    .where('key', '<', AFTER_PREFIX)
    .execute();
  for (const { key } of rows) {
    const subject = key.slice(PREFIX.length);
    const space = subject.indexOf(' ');
    if (space === -1) continue;
    const turned = `${PREFIX}${subject.slice(space + 1)} ${subject.slice(0, space)}`;
    await db.updateTable('throttle_buckets').set({ key: turned }).where('key', '=', key).execute();
  }
}
