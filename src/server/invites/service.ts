import { DAY } from '../clock.js';
import type { AppDeps } from '../deps.js';
import { randomToken, sha256Hex } from '../auth/tokens.js';
import { seal } from './secret-box.js';
import { insertInvite } from './store.js';
import { inviteUrl } from './view.js';

/** Spec §2: an invite is valid for 7 days from creation. */
export const INVITE_LIFETIME_MS = 7 * DAY;

/**
 * Creates a single-use invite and returns its link, token and end of validity (ms). `createdBy` is null for the operator's invites (CLI, first
 * start). The token is stored only as a hash (for registration) and sealed with the secret key (for the list).
 */
export async function createInvite(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'secretKey'>,
  createdBy: number | null,
  note: string | null,
): Promise<{ url: string; token: string; expiresAt: number }> {
  const token = randomToken();
  const now = deps.clock.now();
  const expiresAt = now + INVITE_LIFETIME_MS;
  await insertInvite(deps.db, {
    tokenHash: sha256Hex(token),
    tokenEncrypted: seal(deps.secretKey, token),
    note,
    createdBy,
    now,
    expiresAt,
  });
  return { url: inviteUrl(deps.config.baseUrl, token), token, expiresAt };
}
