import { countUsers } from '../accounts/store.js';
import type { AppDeps } from '../deps.js';
import { createInvite } from './service.js';
import { findNewestPendingOperatorInvite } from './store.js';
import { unsealInviteUrl } from './view.js';

/** The part of a pino logger this needs. */
export interface AnnounceLog {
  warn(details: object, message: string): void;
}

export type FirstInviteDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'secretKey'>;

/**
 * On a fresh installation nobody can register without an invite, so the log shows one. Restarting reuses the
 * newest pending operator invite instead of piling up new ones; a new one is made only when none is left (or
 * the secret key changed, so the old link can no longer be shown). Returns the announced URL, or null when
 * there are users already.
 */
export async function announceFirstInvite(deps: FirstInviteDeps, log: AnnounceLog): Promise<string | null> {
  if ((await countUsers(deps.db)) > 0) return null;
  const existing = await findNewestPendingOperatorInvite(deps.db, deps.clock.now());
  const reusedUrl = existing ? unsealInviteUrl(deps, existing.token_encrypted) : null;
  const { url, expiresAt } =
    existing && reusedUrl !== null
      ? { url: reusedUrl, expiresAt: existing.expires_at }
      : await createInvite(deps, null, null);
  const validUntil = new Date(expiresAt).toISOString();
  log.warn(
    { inviteUrl: url, validUntil, reused: reusedUrl !== null },
    `No users yet. Register the first account with this single-use invite (valid until ${validUntil}): ${url}`,
  );
  return url;
}
