import { type Kysely, sql } from 'kysely';
import { coalescedLookup } from '../db/coalesced-lookup.js';
import { queriesTakeARoundTrip } from '../db/dialect.js';
import { precompiled } from '../db/precompiled.js';
import type { Database } from '../db/schema.js';

/** The user a session or remember-me token belongs to, as requests see it. */
export interface SessionUser {
  id: number;
  email: string;
  name: string;
  locale: string;
  /** The session the request runs under (throttling per session, "log out everywhere" but this one). */
  sessionId: number;
  /** The user's credential version that the session was issued under, equal to the stored one. */
  credentialVersion: number;
  /**
   * The user's `goals_version` as it was when the session was looked up, read in the same query so GET
   * /api/goals can check its list cache without a second round trip (docs/decisions/0110-one-query-per-read.md).
   */
  goalsVersion: number;
}

export async function insertSession(
  db: Kysely<Database>,
  row: { tokenHash: string; userId: number; credentialVersion: number; now: number; expiresAt: number },
): Promise<number> {
  const inserted = await db
    .insertInto('sessions')
    .values({
      token_hash: row.tokenHash,
      user_id: row.userId,
      credential_version: row.credentialVersion,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Sweeping the user's own expired rows here keeps the table small without a background job.
  await db.deleteFrom('sessions').where('user_id', '=', row.userId).where('expires_at', '<=', row.now).execute();
  return inserted.id;
}

const sessionUserColumns = [
  'users.id',
  'users.email',
  'users.name',
  'users.locale',
  'sessions.id as sessionId',
  'users.credential_version as credentialVersion',
  'users.goals_version as goalsVersion',
] as const;

/** Sessions joined to their users: a session issued under an older credential version than the user's is no session. */
const sessionsWithUsers = (db: Kysely<Database>) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', (join) =>
      join
        .onRef('users.id', '=', 'sessions.user_id')
        .onRef('users.credential_version', '=', 'sessions.credential_version'),
    );

/** Runs on every API request on SQLite, hence compiled once. */
const sessionUserQuery = precompiled((db: Kysely<Database>, p: { tokenHash: string; now: number }) =>
  sessionsWithUsers(db)
    .select(sessionUserColumns)
    .where('sessions.token_hash', '=', p.tokenHash)
    .where('sessions.expires_at', '>', p.now),
);

/**
 * PostgreSQL: the sessions of many requests, with their users, in one query (decision 0123); each request checks
 * its own expiry. The tokens are bound as one array, so one statement serves batches of every size.
 */
const sessionUsersQuery = precompiled((db: Kysely<Database>, p: { tokenHashes: string[] }) =>
  sessionsWithUsers(db)
    .select([...sessionUserColumns, 'sessions.token_hash as tokenHash', 'sessions.expires_at as expiresAt'])
    .where('sessions.token_hash', '=', sql<string>`any(${p.tokenHashes})`),
);

type SessionRow = SessionUser & { tokenHash: string; expiresAt: number };

/** The bound on one shared lookup; past it, the next requests share the next one. */
const SESSION_LOOKUP_MAX_KEYS = 100;
const sessionLookups = new WeakMap<Kysely<Database>, (tokenHash: string) => Promise<SessionRow | undefined>>();

/**
 * On PostgreSQL the session lookups of requests that arrive together share one query (decision 0123): under load,
 * the round trips, not the queries' work, are the cost. Kept per database object, so a transaction's lookups stay
 * on its own connection.
 */
function sharedSessionLookup(db: Kysely<Database>) {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = coalescedLookup(async (tokenHashes: string[]) => {
      const rows = await sessionUsersQuery(db, { tokenHashes });
      return new Map(rows.map((row) => [row.tokenHash, row]));
    }, SESSION_LOOKUP_MAX_KEYS);
    sessionLookups.set(db, lookup);
  }
  return lookup;
}

/** The user's current credential version (undefined when the user is gone). */
export async function credentialVersion(db: Kysely<Database>, userId: number): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('credential_version').where('id', '=', userId).executeTakeFirst();
  return row?.credential_version;
}

export async function findSessionUser(
  db: Kysely<Database>,
  tokenHash: string,
  now: number,
): Promise<SessionUser | undefined> {
  // SQLite answers in process: sharing would save little there and hold more requests in memory at once.
  if (!queriesTakeARoundTrip(db)) {
    const [found] = await sessionUserQuery(db, { tokenHash, now });
    return found;
  }
  const row = await sharedSessionLookup(db)(tokenHash);
  if (!row || row.expiresAt <= now) return undefined;
  const { tokenHash: _hash, expiresAt: _expiresAt, ...found } = row;
  return found;
}

export async function deleteSessionByHash(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

export async function insertRememberToken(
  db: Kysely<Database>,
  row: {
    selector: string;
    validatorHash: string;
    userId: number;
    credentialVersion: number;
    now: number;
    expiresAt: number;
  },
): Promise<void> {
  await db
    .insertInto('remember_tokens')
    .values({
      selector: row.selector,
      validator_hash: row.validatorHash,
      user_id: row.userId,
      credential_version: row.credentialVersion,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
  await db.deleteFrom('remember_tokens').where('user_id', '=', row.userId).where('expires_at', '<=', row.now).execute();
}

/** The token behind a remember-me selector, with its user, so a rotation needs no second lookup. */
export async function findRememberToken(db: Kysely<Database>, selector: string) {
  return db
    .selectFrom('remember_tokens')
    .innerJoin('users', 'users.id', 'remember_tokens.user_id')
    .select([
      'remember_tokens.id',
      'remember_tokens.validator_hash',
      'remember_tokens.user_id',
      // `created_at` is moved forward on every rotation, so it tells when the current validator was issued.
      'remember_tokens.created_at as issued_at',
      'remember_tokens.expires_at',
      'remember_tokens.credential_version',
      'users.credential_version as user_credential_version',
      'users.email',
      'users.name',
      'users.locale',
      'users.goals_version',
    ])
    .where('remember_tokens.selector', '=', selector)
    .executeTakeFirst();
}

/**
 * Gives a remember-me token a new validator and lifetime, but only while it still holds `expectedHash` and was
 * issued under the user's current credential version; false when another request rotated (or logout deleted) it
 * first, or a credential change ended it meanwhile.
 */
export async function rotateRememberValidator(
  db: Kysely<Database>,
  row: { id: number; expectedHash: string; validatorHash: string; now: number; expiresAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('remember_tokens')
    .set({ validator_hash: row.validatorHash, created_at: row.now, expires_at: row.expiresAt })
    .where('id', '=', row.id)
    .where('validator_hash', '=', row.expectedHash)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('users')
          .select('users.id')
          .whereRef('users.id', '=', 'remember_tokens.user_id')
          .whereRef('users.credential_version', '=', 'remember_tokens.credential_version'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteRememberTokenBySelector(db: Kysely<Database>, selector: string): Promise<void> {
  await db.deleteFrom('remember_tokens').where('selector', '=', selector).execute();
}

/** Ends every session and remember-me token of a user (password change, reset, suspected token theft). */
export async function deleteAllUserLogins(db: Kysely<Database>, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('remember_tokens').where('user_id', '=', userId).execute();
}

/**
 * Keeps the hashes of the user's live sessions and remember-me tokens as gone logins, each until it would have
 * expired (decision 0198). Runs in the account deletion's transaction, before its logins are deleted.
 */
export async function keepGoneLogins(db: Kysely<Database>, userId: number, now: number): Promise<void> {
  await db
    .insertInto('gone_logins')
    .columns(['token_hash', 'expires_at'])
    .expression(
      db
        .selectFrom('sessions')
        .select(['token_hash', 'expires_at'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .unionAll(
          db
            .selectFrom('remember_tokens')
            .select(['validator_hash as token_hash', 'expires_at'])
            .where('user_id', '=', userId)
            .where('expires_at', '>', now),
        ),
    )
    .execute();
}

/** Whether one of these token hashes was a login of an account deleted since (and would not have expired yet). */
export async function isGoneLogin(db: Kysely<Database>, tokenHashes: string[], now: number): Promise<boolean> {
  if (tokenHashes.length === 0) return false;
  const row = await db
    .selectFrom('gone_logins')
    .select('token_hash')
    .where('token_hash', 'in', tokenHashes)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Drops the gone logins whose tokens have expired (hourly housekeeping, decision 0137). */
export async function sweepGoneLogins(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('gone_logins').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
