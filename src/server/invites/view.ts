import type { AppDeps } from '../deps.js';
import { open } from './secret-box.js';
import type { InviteListRow } from './store.js';

export type InviteStatus = 'pending' | 'used' | 'expired';

/** An invite as `GET /api/invites` shows it (spec §2 Invite). */
export interface InviteView {
  url: string | null;
  note: string | null;
  status: InviteStatus;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by_email: string | null;
}

export function inviteUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/?invite=${token}`;
}

/** The one place an invite's state is derived (the list, registration). Spec §3 rule 1: used wins over expired; an invite expires at the very millisecond of `expires_at`. */
export function inviteStatus(invite: { used_at: number | null; expires_at: number }, now: number): InviteStatus {
  if (invite.used_at !== null) return 'used';
  return invite.expires_at <= now ? 'expired' : 'pending';
}

/**
 * The link of a pending invite, recovered from its sealed token. Null when the secret key changed since the
 * invite was made (the box no longer opens), so such an invite cannot be shown or reused, only registered with
 * a link handed out earlier.
 */
export function unsealInviteUrl(deps: Pick<AppDeps, 'config' | 'secretKey'>, sealed: string | null): string | null {
  const token = sealed === null ? null : open(deps.secretKey, sealed);
  return token === null ? null : inviteUrl(deps.config.baseUrl, token);
}

export function toInviteView(deps: Pick<AppDeps, 'config' | 'secretKey'>, row: InviteListRow, now: number): InviteView {
  const status = inviteStatus(row, now);
  return {
    url: status === 'pending' ? unsealInviteUrl(deps, row.token_encrypted) : null,
    note: row.note,
    status,
    created_at: isoTime(row.created_at),
    expires_at: isoTime(row.expires_at),
    used_at: row.used_at === null ? null : isoTime(row.used_at),
    used_by_email: row.used_by_email ?? null,
  };
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
