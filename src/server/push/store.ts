import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface PushSubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Stores a browser's subscription for the user; the same endpoint again (also from another account) moves it. */
export async function savePushSubscription(
  db: Kysely<Database>,
  userId: number,
  subscription: PushSubscriptionRow,
  now: number,
): Promise<void> {
  const values = { user_id: userId, p256dh: subscription.p256dh, auth: subscription.auth, created_at: now };
  await db
    .insertInto('push_subscriptions')
    .values({ endpoint: subscription.endpoint, ...values })
    .onConflict((oc) => oc.column('endpoint').doUpdateSet(values))
    .execute();
}

export async function removePushSubscription(db: Kysely<Database>, userId: number, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).execute();
}

/** The push service said the subscription is gone (404/410): forget it, whoever's it is. */
export async function forgetPushEndpoint(db: Kysely<Database>, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).execute();
}

export async function listPushSubscriptions(db: Kysely<Database>, userId: number): Promise<PushSubscriptionRow[]> {
  return db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'p256dh', 'auth'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}
