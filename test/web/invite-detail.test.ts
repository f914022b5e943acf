import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import type { Invite } from '../../src/web/api.js';
import { formatMoment, setUiLocale } from '../../src/web/i18n/index.js';
import { inviteDetail } from '../../src/web/invite-detail.js';

afterEach(() => setUiLocale('en'));

const USED_AT = '2026-11-27T10:00:00.000Z';
const used = (email: string | null): Invite => ({
  url: null,
  note: null,
  status: 'used',
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: '2026-11-27T10:00:00.000Z',
  used_at: USED_AT,
  used_by_email: email,
});

test('an invite used by an account deleted since says so, in every language, instead of an empty name', () => {
  // The server sends `used_by_email: null` for it (docs/api-data.md, decision 0072).
  const expected = {
    en: 'Used on {date} by an account that no longer exists',
    de: 'Verwendet am {date} von einem Konto, das es nicht mehr gibt',
    pl: 'Wykorzystane dnia {date} przez konto, które już nie istnieje',
  } as const;
  for (const locale of ['en', 'de', 'pl'] as const) {
    setUiLocale(locale);
    assert.equal(inviteDetail(used(null)), expected[locale].replace('{date}', formatMoment(USED_AT)), locale);
  }
  setUiLocale('de');
  assert.equal(inviteDetail(used('anna@example.com')), `Verwendet von anna@example.com am ${formatMoment(USED_AT)}`);
});

test('a pending invite says until when it is valid, an expired one since when', () => {
  const pending: Invite = { ...used(null), status: 'pending', used_at: null, url: 'http://x/?invite=1' };
  assert.equal(inviteDetail(pending), `Valid until ${formatMoment(pending.expires_at)}`);
  assert.equal(
    inviteDetail({ ...pending, status: 'expired', url: null }),
    `Expired on ${formatMoment(pending.expires_at)}`,
  );
});
