import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

export interface BucketRule {
  /** Attempts allowed in a burst. */
  capacity: number;
  /** Milliseconds until one spent attempt comes back. */
  refillMs: number;
}

export type ConsumeResult = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * Takes one token from the bucket `key`, in the database so that the limit holds across server processes.
 * Each statement is atomic on its own in both engines (PostgreSQL re-checks the WHERE under the row lock), so
 * parallel attempts can never spend more tokens than the bucket holds.
 */
export async function consumeToken(
  db: Kysely<Database>,
  key: string,
  rule: BucketRule,
  now: number,
): Promise<ConsumeResult> {
  await db
    .insertInto('throttle_buckets')
    .values({ key, tokens: rule.capacity, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();

  // `now` is a bound parameter so the SQL text is the same for every attempt of a rule: one prepared statement,
  // not a new one per millisecond flooding the SQLite statement cache (db/open.ts). The cast keeps integer
  // arithmetic on both engines (pg sends parameters as text). The rule's numbers are few and fixed, so literals.
  const nowParam = sql`cast(${now} as bigint)`;
  const refilled = sql<number>`case
      when tokens + (${nowParam} - updated_at) / ${sql.lit(rule.refillMs)}.0 > ${sql.lit(rule.capacity)}
      then ${sql.lit(rule.capacity)}
      else tokens + (${nowParam} - updated_at) / ${sql.lit(rule.refillMs)}.0 end`;
  const taken = await db
    .updateTable('throttle_buckets')
    .set({ tokens: sql`${refilled} - 1`, updated_at: now })
    .where('key', '=', key)
    .where(refilled, '>=', 1)
    .returning('tokens')
    .executeTakeFirst();
  if (taken) return { allowed: true };

  const bucket = await db
    .selectFrom('throttle_buckets')
    .select(['tokens', 'updated_at'])
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  const tokensNow = bucket.tokens + Math.max(0, now - bucket.updated_at) / rule.refillMs;
  return { allowed: false, retryAfterMs: Math.max(1, (1 - tokensNow) * rule.refillMs) };
}

/**
 * Deletes the buckets last spent from at or before `untouchedSince`; the caller picks a time after which every
 * bucket has refilled completely, so a deleted bucket and a missing one (made full on the next attempt) are the same.
 */
export async function deleteBucketsUntouchedSince(db: Kysely<Database>, untouchedSince: number): Promise<number> {
  const result = await db.deleteFrom('throttle_buckets').where('updated_at', '<=', untouchedSince).executeTakeFirst();
  return Number(result.numDeletedRows);
}
