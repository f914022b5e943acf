import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/*
 * The `Idempotency-Key`s of a user's recent keyed requests (decisions 0127, 0130, 0141, 0200): an import, a goal
 * creation, an invite or an undo by amount retried after its answer was lost is recognised and not carried out twice.
 */

type Db = Kysely<Database>;

/** A keyed request: its `Idempotency-Key` and the SHA-256 (hex) of its body. */
export interface RequestKey {
  key: string;
  bodyHash: string;
}

/** The kinds of keyed request; a key names a request of one kind, so an import's key never matches a goal's. */
export type KeyScope = 'import' | 'create_goal' | 'create_invite' | 'remove_amount';

/** How long a key is remembered: a retry after a lost answer comes within minutes, a day is ample. */
export const REQUEST_KEY_KEPT_MS = 24 * 60 * 60 * 1000;
/** The most keys kept per user and scope, newest first: without it, a day of keyed requests would have no bound. */
export const REQUEST_KEYS_KEPT_MAX = 100;

/**
 * What the key says about this request: `new` (now recorded with `result`), a `repeat` of
 * an earlier request with the same body (its result), or `reused` with another body.
 */
export type KeyClaim = { new: true } | { new: false; repeatOf: number } | 'reused';

/**
 * Records `key` for this request, inside the caller's transaction and as its first write: on SQLite it takes the
 * write lock, and on PostgreSQL a second request with the same key waits at the insert until this one has ended.
 * Keys older than REQUEST_KEY_KEPT_MS and those past the user's newest REQUEST_KEYS_KEPT_MAX of the scope are swept
 * here, so the table stays small without a background job.
 */
export async function claimRequestKey(
  trx: Db,
  userId: number,
  scope: KeyScope,
  key: RequestKey,
  now: number,
  /** What the request does, when known before it runs (an import's goal count); else set by `recordKeyResult`. */
  result = 0,
): Promise<KeyClaim> {
  await trx
    .deleteFrom('request_keys')
    .where('user_id', '=', userId)
    .where('scope', '=', scope)
    .where('created_at', '<=', now - REQUEST_KEY_KEPT_MS)
    .execute();
  const claimed = await trx
    .insertInto('request_keys')
    .values({ user_id: userId, scope, key: key.key, body_hash: key.bodyHash, result, created_at: now })
    .onConflict((conflict) => conflict.columns(['user_id', 'scope', 'key']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  if (claimed) {
    await trx
      .deleteFrom('request_keys')
      .where('user_id', '=', userId)
      .where('scope', '=', scope)
      .where('key', 'not in', (eb) =>
        eb
          .selectFrom('request_keys')
          .select('key')
          .where('user_id', '=', userId)
          .where('scope', '=', scope)
          .orderBy('created_at', 'desc')
          .limit(REQUEST_KEYS_KEPT_MAX),
      )
      .execute();
    return { new: true };
  }
  const earlier = await trx
    .selectFrom('request_keys')
    .select(['body_hash', 'result'])
    .where('user_id', '=', userId)
    .where('scope', '=', scope)
    .where('key', '=', key.key)
    .executeTakeFirstOrThrow();
  return earlier.body_hash === key.bodyHash ? { new: false, repeatOf: earlier.result } : 'reused';
}

/** What the request of a newly claimed key did, once known (a created goal's id), for the answer to its repeats. */
export async function recordKeyResult(trx: Db, userId: number, scope: KeyScope, key: RequestKey, result: number) {
  await trx
    .updateTable('request_keys')
    .set({ result })
    .where('user_id', '=', userId)
    .where('scope', '=', scope)
    .where('key', '=', key.key)
    .execute();
}

/** Every key of the user (account deletion). */
export async function deleteRequestKeys(trx: Db, userId: number): Promise<void> {
  await trx.deleteFrom('request_keys').where('user_id', '=', userId).execute();
}
