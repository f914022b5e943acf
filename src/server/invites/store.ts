import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type InviteStatus, inviteStatus } from './view.js';

export async function insertInvite(
  db: Kysely<Database>,
  invite: {
    tokenHash: string;
    tokenEncrypted: string;
    note: string | null;
    createdBy: number | null;
    now: number;
    expiresAt: number;
  },
): Promise<number> {
  const { id } = await db
    .insertInto('invites')
    .values({
      token_hash: invite.tokenHash,
      token_encrypted: invite.tokenEncrypted,
      note: invite.note,
      created_by: invite.createdBy,
      created_at: invite.now,
      expires_at: invite.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The sealed token of the caller's invite `inviteId`: null once it was used or revoked, or without such an invite. */
export async function sealedTokenOf(db: Kysely<Database>, userId: number, inviteId: number): Promise<string | null> {
  const row = await db
    .selectFrom('invites')
    .select('token_encrypted')
    .where('id', '=', inviteId)
    .where('created_by', '=', userId)
    .executeTakeFirst();
  return row?.token_encrypted ?? null;
}

/** The caller's invites, newest first, with the e-mail of whoever used each. */
export async function listInvitesByCreator(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('invites')
    .leftJoin('users as used_by_user', 'used_by_user.id', 'invites.used_by')
    .select([
      'invites.token_encrypted',
      'invites.note',
      'invites.created_at',
      'invites.expires_at',
      'invites.used_at',
      'used_by_user.email as used_by_email',
    ])
    .where('invites.created_by', '=', userId)
    .orderBy('invites.created_at', 'desc')
    .orderBy('invites.id', 'desc')
    .execute();
}

export type InviteListRow = Awaited<ReturnType<typeof listInvitesByCreator>>[number];

/** The newest operator invite (CLI, first start) that can still be used, with its sealed token. */
export async function findNewestPendingOperatorInvite(db: Kysely<Database>, now: number) {
  return db
    .selectFrom('invites')
    .select(['token_encrypted', 'expires_at'])
    .where('created_by', 'is', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('token_encrypted', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export type InviteState = InviteStatus | 'unknown';
export type ClaimResult =
  { ok: true; inviteId: number; createdBy: number | null } | { ok: false; reason: Exclude<InviteState, 'pending'> };

/**
 * What registering with this token would meet now; read-only, for refusing early before any costly work. The
 * state itself comes from `inviteStatus`, the same rule the invite list shows.
 */
export async function inviteState(db: Kysely<Database>, tokenHash: string, now: number): Promise<InviteState> {
  const invite = await db
    .selectFrom('invites')
    .select(['used_at', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return invite ? inviteStatus(invite, now) : 'unknown';
}

/**
 * Marks a pending invite as used, as the first write of the registration transaction: the row lock (PostgreSQL)
 * or the write lock (SQLite) it takes makes parallel registrations with one token wait, and only one finds it
 * still pending. Roll the transaction back and the invite is pending again.
 */
export async function claimInvite(trx: Kysely<Database>, tokenHash: string, now: number): Promise<ClaimResult> {
  const claimed = await trx
    .updateTable('invites')
    .set({ used_at: now, token_encrypted: null })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id', 'created_by'])
    .executeTakeFirst();
  if (claimed) return { ok: true, inviteId: claimed.id, createdBy: claimed.created_by };
  const state = await inviteState(trx, tokenHash, now);
  // Unclaimable yet still reading as pending: it expired between the two statements.
  return { ok: false, reason: state === 'pending' ? 'expired' : state };
}

export async function recordInviteUser(trx: Kysely<Database>, inviteId: number, userId: number): Promise<void> {
  await trx.updateTable('invites').set({ used_by: userId }).where('id', '=', inviteId).execute();
}

/**
 * Ends one of `userId`'s pending invites now: it expires at this millisecond (so it lists as expired and cannot
 * register) and its sealed link is dropped. False when the creator has no pending invite with this token.
 */
export async function revokeInvite(
  db: Kysely<Database>,
  userId: number,
  tokenHash: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set({ expires_at: now, token_encrypted: null })
    .where('token_hash', '=', tokenHash)
    .where('created_by', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
