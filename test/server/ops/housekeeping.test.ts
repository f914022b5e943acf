import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { DAY, FakeClock, HOUR } from '../../../src/server/clock.js';
import { FULL_REFILL_MS, THROTTLE_RULES, throttleKey } from '../../../src/server/auth/throttle.js';
import { createHousekeeping } from '../../../src/server/ops/housekeeping.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { migrateToLatest } from '../../../src/server/db/migrate.js';
import { openDatabase } from '../../../src/server/db/open.js';
import { createTestDatabase } from '../../support/database.js';
import { freePort, startServerProcess } from '../../support/server-process.js';
import type { TestClient } from '../../support/client.js';

// Decision 0137: rows nothing can need any more (refilled throttle buckets, past reminder sends, expired logins of
// deleted accounts, decision 0198) are swept hourly.

const silentLog = { warn: () => {} };

const bucketKeys = async (steady: TestApp) =>
  (await steady.deps.db.selectFrom('throttle_buckets').select('key').orderBy('key').execute()).map((row) => row.key);

function clientAt(steady: TestApp, address: string): TestClient {
  const client = steady.client();
  client.remoteAddress = address;
  return client;
}

const wrongLogin = (client: TestClient) =>
  client.post('/api/login', { email: 'nobody@example.com', password: 'not the password' });

test('the longest refill of any rule is the invites: a day', () => {
  assert.equal(FULL_REFILL_MS, DAY);
  assert.equal(THROTTLE_RULES.invitePerUser.capacity * THROTTLE_RULES.invitePerUser.refillMs, DAY);
});

test('a sweep drops the buckets untouched for a full refill and keeps the others', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const housekeeping = createHousekeeping(steady.deps, silentLog);
  assert.equal((await wrongLogin(clientAt(steady, '203.0.113.1'))).status, 401);
  steady.clock.advance(12 * HOUR);
  assert.equal((await wrongLogin(clientAt(steady, '203.0.113.2'))).status, 401);
  const both = [throttleKey('loginPerAddress', '203.0.113.1'), throttleKey('loginPerAddress', '203.0.113.2')];
  assert.deepEqual(await bucketKeys(steady), both);

  steady.clock.advance(FULL_REFILL_MS - 12 * HOUR - 1);
  assert.equal((await housekeeping.run()).throttleBuckets, 0, 'a millisecond before its refill the bucket stays');
  steady.clock.advance(1);
  assert.equal((await housekeeping.run()).throttleBuckets, 1);
  assert.deepEqual(await bucketKeys(steady), [both[1]]);
});

test('a sweep leaves a limit in force: an address that spent its attempts is still refused', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const housekeeping = createHousekeeping(steady.deps, silentLog);
  const attacker = clientAt(steady, '203.0.113.66');
  for (let n = 0; n < THROTTLE_RULES.loginPerAddress.capacity; n++)
    assert.equal((await wrongLogin(attacker)).status, 401);
  assert.equal((await wrongLogin(attacker)).status, 429);
  assert.equal((await housekeeping.run()).throttleBuckets, 0);
  assert.equal((await wrongLogin(attacker)).status, 429);
});

test('the send rows of reminders go two days after their local date', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const goalId = (await anna.post('/api/goals', { name: 'Push-ups', unit: 'reps', daily: 50, days: 30 })).body.id;
  const userId = (await steady.deps.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
  // The fake clock stands at 2026-01-15 09:00 UTC: 2026-01-13 is kept, 2026-01-12 goes.
  const sent = (localDate: string) => ({
    goal_id: Number(goalId),
    local_date: localDate,
    user_id: userId,
    channel: 'email',
    status: 'sent' as const,
    attempts: 1,
    claimed_at: steady.clock.now(),
    next_try_at: null,
    finished_at: steady.clock.now(),
  });
  await steady.deps.db
    .insertInto('reminder_sends')
    .values(['2026-01-11', '2026-01-12', '2026-01-13', '2026-01-14', '2026-01-15'].map(sent))
    .execute();

  const results = await createHousekeeping(steady.deps, silentLog).run();
  assert.deepEqual(results, { throttleBuckets: 0, reminderSends: 2, goneLogins: 0 });
  const kept = await steady.deps.db.selectFrom('reminder_sends').select('local_date').orderBy('local_date').execute();
  assert.deepEqual(
    kept.map((row) => row.local_date),
    ['2026-01-13', '2026-01-14', '2026-01-15'],
  );
});

test('a failed sweep is logged and answers null instead of ending the process', async () => {
  const testDatabase = await createTestDatabase();
  const database = await openDatabase(parseDatabaseUrl(testDatabase.url));
  await migrateToLatest(database.db, database.dialect);
  // A database closed under the sweeps: every statement fails, as when the server is unreachable.
  await database.close();
  try {
    const warnings: Array<{ sweep: string; message: string }> = [];
    const housekeeping = createHousekeeping(
      { db: database.db, clock: new FakeClock() },
      { warn: ({ sweep }, message) => void warnings.push({ sweep, message }) },
    );
    assert.deepEqual(await housekeeping.run(), { throttleBuckets: null, reminderSends: null, goneLogins: null });
    const message = 'a housekeeping sweep failed; trying again in an hour';
    assert.deepEqual(warnings, [
      { sweep: 'throttleBuckets', message },
      { sweep: 'reminderSends', message },
      { sweep: 'goneLogins', message },
    ]);
  } finally {
    await testDatabase.drop();
  }
});

test('the server sweeps once it answers', { timeout: 90_000 }, async (t) => {
  const testDatabase = await createTestDatabase();
  t.after(() => testDatabase.drop());
  const database = await openDatabase(parseDatabaseUrl(testDatabase.url));
  await migrateToLatest(database.db, database.dialect);
  const now = Date.now();
  await database.db
    .insertInto('throttle_buckets')
    .values([
      { key: throttleKey('loginPerAddress', '203.0.113.1'), tokens: 3, updated_at: now - FULL_REFILL_MS - HOUR },
      { key: throttleKey('loginPerAddress', '203.0.113.2'), tokens: 3, updated_at: now - HOUR },
    ])
    .execute();
  t.after(() => database.close());

  const server = startServerProcess({
    DATABASE_URL: testDatabase.url,
    DATA_DIR: testDatabase.dataDir,
    PORT: String(await freePort()),
    LOG_LEVEL: 'info',
  });
  t.after(() => server.kill());
  await server.waitForLine((line) => typeof line.msg === 'string' && line.msg.startsWith('Steady is running at'));
  const keys = async () =>
    (await database.db.selectFrom('throttle_buckets').select('key').execute()).map((row) => row.key);
  for (let waited = 0; (await keys()).length > 1 && waited < 10_000; waited += 50) await delay(50);
  assert.deepEqual(await keys(), [throttleKey('loginPerAddress', '203.0.113.2')]);
});
