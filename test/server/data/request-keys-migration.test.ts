import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { FakeClock } from '../../../src/server/clock.js';
import { createTestApp, PASSWORD } from '../../support/app.js';
import { OLD_USER_EMAIL, olderDatabase } from '../../support/migrations.js';

// Decision 0130: migration 0010 moves the import keys into request_keys, so an import retried across the upgrade is
// still recognised.
test('migration 0010 keeps the import keys: a retry after the upgrade answers the earlier import', async () => {
  const { database, db, userId, close } = await olderDatabase('0010');
  const document = JSON.stringify({ format: 'steady-export', version: 1, goals: [] });
  await db
    .insertInto('import_keys')
    .values({
      user_id: userId,
      key: 'before-the-upgrade',
      document_hash: createHash('sha256').update(document).digest('hex'),
      goals: 3,
      created_at: new FakeClock().now() - 60_000,
    })
    .execute();
  await close();

  const steady = await createTestApp({}, { database });
  try {
    const client = steady.client();
    assert.equal((await client.post('/api/login', { email: OLD_USER_EMAIL, password: PASSWORD })).status, 200);
    const retried = await client.post('/api/import', document, { 'idempotency-key': 'before-the-upgrade' });
    assert.equal(retried.status, 200, retried.text);
    assert.deepEqual(retried.body, { ok: true, goals: 3 }, "the earlier import's answer, nothing added");
    const keys = await steady.deps.db.selectFrom('request_keys').selectAll().execute();
    assert.deepEqual(
      keys.map(({ scope, key, result }) => ({ scope, key, result })),
      [{ scope: 'import', key: 'before-the-upgrade', result: 3 }],
    );
  } finally {
    await steady.close();
  }
});
