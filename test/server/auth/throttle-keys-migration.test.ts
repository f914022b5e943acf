import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../../src/server/clock.js';
import { createTestApp, PASSWORD } from '../../support/app.js';
import { OLD_USER_EMAIL, olderDatabase } from '../../support/migrations.js';

// Decision 0207: migration 0014 turns the per-client reset buckets to name the address first, so a limit reached
// before the upgrade holds after it, and account deletion finds them by their key range.
test('migration 0014 keeps an exhausted per-client reset limit, and account deletion then removes that bucket', async () => {
  const { database, db, close } = await olderDatabase('0014');
  const now = new FakeClock().now();
  await db
    .insertInto('throttle_buckets')
    .values([
      { key: `resetMailPerClientAndEmail:198.51.100.7 ${OLD_USER_EMAIL}`, tokens: 0, updated_at: now },
      { key: 'resetMailPerClientAndEmail:2001:db8:0:0::/64 other@example.com', tokens: 2, updated_at: now },
      { key: 'loginPerAddress:198.51.100.7', tokens: 9, updated_at: now },
    ])
    .execute();
  await close();

  const steady = await createTestApp({ TRUST_PROXY: 'loopback' }, { database });
  try {
    const keys = async () =>
      (await steady.deps.db.selectFrom('throttle_buckets').select(['key', 'tokens']).orderBy('key').execute()).map(
        ({ key, tokens }) => `${key} = ${tokens}`,
      );
    assert.deepEqual(await keys(), [
      'loginPerAddress:198.51.100.7 = 9',
      `resetMailPerClientAndEmail:${OLD_USER_EMAIL} 198.51.100.7 = 0`,
      'resetMailPerClientAndEmail:other@example.com 2001:db8:0:0::/64 = 2',
    ]);
    // The limit reached before the upgrade still holds: no mail for that client and address.
    const asked = await steady
      .client()
      .post('/api/reset-request', { email: OLD_USER_EMAIL }, { 'x-forwarded-for': '198.51.100.7' });
    assert.equal(asked.status, 200);
    assert.equal(steady.smtp.mails.length, 0);

    const old = steady.client();
    assert.equal((await old.post('/api/login', { email: OLD_USER_EMAIL, password: PASSWORD })).status, 200);
    assert.equal((await old.request('DELETE', '/api/me', { password: PASSWORD })).status, 200);
    assert.ok(!(await keys()).some((key) => key.includes(OLD_USER_EMAIL)), (await keys()).join('\n'));
    assert.ok((await keys()).includes('resetMailPerClientAndEmail:other@example.com 2001:db8:0:0::/64 = 2'));
  } finally {
    await steady.close();
  }
});
