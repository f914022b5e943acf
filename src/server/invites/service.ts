import { DAY } from '../clock.js';
import type { AppDeps } from '../deps.js';
import { randomToken, sha256Hex } from '../auth/tokens.js';
import { claimRequestKey, recordKeyResult, type RequestKey } from '../http/request-keys-store.js';
import { seal } from './secret-box.js';
import { insertInvite, sealedTokenOf } from './store.js';
import { inviteUrl, unsealInviteUrl } from './view.js';

/** The stored hash of an invite link's token as a visitor sends it (a pasted link may bring spaces around it). */
export function inviteTokenHash(token: string): string {
  return sha256Hex(token.trim());
}

/** Spec §2: an invite is valid for 7 days from creation. */
export const INVITE_LIFETIME_MS = 7 * DAY;

type InviteDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'secretKey'>;

/** A new invite's row, token and end of validity: the token is stored only as a hash (for registration) and sealed
 * with the secret key (for the list). */
function newInvite(deps: InviteDeps, createdBy: number | null, note: string | null, now: number) {
  const token = randomToken();
  const expiresAt = now + INVITE_LIFETIME_MS;
  const row = {
    tokenHash: sha256Hex(token),
    tokenEncrypted: seal(deps.secretKey, token),
    note,
    createdBy,
    now,
    expiresAt,
  };
  return { row, token, expiresAt };
}

/**
 * Creates a single-use invite and returns its link, token and end of validity (ms). `createdBy` is null for the
 * operator's invites (CLI, first start).
 */
export async function createInvite(
  deps: InviteDeps,
  createdBy: number | null,
  note: string | null,
): Promise<{ url: string; token: string; expiresAt: number }> {
  const { row, token, expiresAt } = newInvite(deps, createdBy, note, deps.clock.now());
  await insertInvite(deps.db, row);
  return { url: inviteUrl(deps.config.baseUrl, token), token, expiresAt };
}

/**
 * An invite created with an `Idempotency-Key` (decision 0141): the first request with the key makes it; a repeat
 * with the same body answers the same link, made nothing new; 'reused' when the key came with another body; 'gone'
 * when the invite the key made was used or revoked since (its link can no longer be shown).
 */
export async function createKeyedInvite(
  deps: InviteDeps,
  createdBy: number,
  note: string | null,
  key: RequestKey,
): Promise<{ url: string } | 'reused' | 'gone'> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const claim = await claimRequestKey(trx, createdBy, 'create_invite', key, now);
    if (claim === 'reused') return claim;
    if (!claim.new) {
      const url = unsealInviteUrl(deps, await sealedTokenOf(trx, createdBy, claim.repeatOf));
      return url === null ? 'gone' : { url };
    }
    const { row, token } = newInvite(deps, createdBy, note, now);
    await recordKeyResult(trx, createdBy, 'create_invite', key, await insertInvite(trx, row));
    return { url: inviteUrl(deps.config.baseUrl, token) };
  });
}
