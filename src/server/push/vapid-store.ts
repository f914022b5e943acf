import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

const VAPID_KEY = 'vapid_keys';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair every process shares, kept in `server_state` (docs/decisions/0102-vapid-keys.md). The first
 * process to ask stores `fresh`; the insert does nothing when another process was first, and everyone reads the
 * one stored pair, so subscriptions made through any process stay valid for all.
 */
export async function sharedVapidKeys(db: Kysely<Database>, fresh: VapidKeys, now: number): Promise<VapidKeys> {
  await db
    .insertInto('server_state')
    .values({ key: VAPID_KEY, value: JSON.stringify(fresh), updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_state')
    .select('value')
    .where('key', '=', VAPID_KEY)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.value) as VapidKeys;
}
