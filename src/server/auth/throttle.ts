import type { Kysely } from 'kysely';
import { DAY, HOUR, MINUTE } from '../clock.js';
import type { Database } from '../db/schema.js';
import { tooManyRequests } from '../http/errors.js';
import { type BucketRule, consumeToken, deleteBucketsUntouchedSince } from './throttle-store.js';

/**
 * The attempt limits, in one table. Recorded with reasons in docs/decisions/0005-throttling.md.
 * Login is limited per client address only, so an attacker on one address cannot lock the owner out from another.
 */
export const THROTTLE_RULES = {
  /** 10 attempts at once, then one every 30 s (120 an hour) per client address. */
  loginPerAddress: { capacity: 10, refillMs: 30_000 },
  /** 5 attempts at once, then one a minute, per session (decision 0064). */
  changePasswordPerSession: { capacity: 5, refillMs: MINUTE },
  /** At most 3 reset mails an hour per requesting client address and e-mail address (one every 20 minutes after the burst). */
  resetMailPerClientAndEmail: { capacity: 3, refillMs: HOUR / 3 },
  /**
   * At most 10 reset mails an hour per e-mail address, whoever asks: looser than the above, so three strangers
   * spending theirs still leave the owner's request its mail, yet a mailbox cannot be flooded (decision 0064).
   */
  resetMailPerEmail: { capacity: 10, refillMs: HOUR / 10 },
  /** 50 invites a day per user (after a burst of 50), so one account cannot fill the invite table. */
  invitePerUser: { capacity: 50, refillMs: DAY / 50 },
  /** At most 10 reset requests per client address an hour, whatever the addresses. */
  resetRequestPerAddress: { capacity: 10, refillMs: HOUR / 10 },
} as const satisfies Record<string, BucketRule>;

export type ThrottleRuleName = keyof typeof THROTTLE_RULES;

/** The longest a bucket of any rule takes to refill from empty: after it, an untouched bucket is full. */
export const FULL_REFILL_MS = Math.max(...Object.values(THROTTLE_RULES).map((rule) => rule.capacity * rule.refillMs));

/**
 * Drops the buckets untouched for FULL_REFILL_MS: they are full, as a bucket that does not exist yet is. Without
 * this every client address and e-mail address ever tried would keep a row (housekeeping, decision 0137).
 */
export function sweepRefilledBuckets(db: Kysely<Database>, now: number): Promise<number> {
  return deleteBucketsUntouchedSince(db, now - FULL_REFILL_MS);
}

/** The bucket of one rule and subject (a client address, a user id, a session id, an e-mail address). */
export const throttleKey = (rule: ThrottleRuleName, subject: string): string => `${rule}:${subject}`;

/**
 * The buckets that name one user, one of their sessions or their e-mail address; they go with the account
 * (decision 0072). `resetMailPerClientAndEmail` buckets name a client too; they are found by `userClientBucketRange`.
 */
export function userThrottleKeys(user: { id: number; email: string }, sessionIds: number[]): string[] {
  return [
    throttleKey('invitePerUser', String(user.id)),
    throttleKey('resetMailPerEmail', user.email),
    ...sessionIds.map((id) => throttleKey('changePasswordPerSession', String(id))),
  ];
}

/**
 * The subject of a `resetMailPerClientAndEmail` bucket: the e-mail address first, then the client address (which
 * has no space), so one address's buckets are one range of keys (decision 0207; migration 0014 turned older keys).
 */
export const clientAndEmailSubject = (client: string, email: string): string => `${email} ${client}`;

/**
 * The keys of `email`'s `resetMailPerClientAndEmail` buckets lie from `from` (inclusive) to `to` (exclusive), compared
 * byte by byte as `throttle_buckets.key` is on both engines: `…:<email> ` up to `…:<email>!` ('!' follows ' '). Account
 * deletion reads them through the primary key instead of every bucket (decision 0207).
 */
export function userClientBucketRange(email: string): { from: string; to: string } {
  const from = throttleKey('resetMailPerClientAndEmail', clientAndEmailSubject('', email));
  return { from, to: `${from.slice(0, -1)}!` };
}

/** Whether `key` (one of the range above) is a bucket of `email` and a client, not of an address with a space. */
export function isUserClientBucket(key: string, email: string): boolean {
  const { from } = userClientBucketRange(email);
  return key.startsWith(from) && !key.slice(from.length).includes(' ');
}

/** Spends one attempt of `rule` for `subject`; throws 429 with Retry-After when none is left. */
export async function spendAttempt(
  db: Kysely<Database>,
  rule: ThrottleRuleName,
  subject: string,
  now: number,
): Promise<void> {
  const result = await consumeToken(db, throttleKey(rule, subject), THROTTLE_RULES[rule], now);
  if (!result.allowed) throw tooManyRequests(result.retryAfterMs / 1000);
}

/** Like `spendAttempt`, but answers false instead of throwing, for limits that must stay silent. */
export async function tryAttempt(
  db: Kysely<Database>,
  rule: ThrottleRuleName,
  subject: string,
  now: number,
): Promise<boolean> {
  return (await consumeToken(db, throttleKey(rule, subject), THROTTLE_RULES[rule], now)).allowed;
}
