import type { Invite } from './api.js';
import { formatMoment, t } from './i18n/index.js';

/**
 * What became of an invite, after its creation date: who used it and when, when it expired, or until when it is
 * valid. A used invite without an address was used by an account deleted since (docs/api-data.md, decision 0072),
 * which the list says rather than leaving a gap where the address was.
 */
export function inviteDetail(invite: Invite): string {
  if (invite.status === 'expired') return t('invites.expiredOn', { date: formatMoment(invite.expires_at) });
  if (invite.status === 'pending') return t('invites.validUntil', { date: formatMoment(invite.expires_at) });
  const date = invite.used_at ? formatMoment(invite.used_at) : '';
  return invite.used_by_email === null
    ? t('invites.usedByDeleted', { date })
    : t('invites.usedBy', { email: invite.used_by_email, date });
}
