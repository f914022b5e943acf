import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

const BASE_URL_KEY = 'base_url';

/** Remembers the address the server serves at, so `steady invite` run without BASE_URL prints links that work. */
export async function saveServedBaseUrl(db: Kysely<Database>, baseUrl: string, now: number): Promise<void> {
  await db
    .insertInto('server_state')
    .values({ key: BASE_URL_KEY, value: baseUrl, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: baseUrl, updated_at: now }))
    .execute();
}

export async function findServedBaseUrl(db: Kysely<Database>): Promise<string | null> {
  const row = await db.selectFrom('server_state').select('value').where('key', '=', BASE_URL_KEY).executeTakeFirst();
  return row?.value ?? null;
}
