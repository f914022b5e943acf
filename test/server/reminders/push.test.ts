import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { openDatabase } from '../../../src/server/db/open.js';
import { publicOnlyLookup } from '../../../src/server/push/endpoint.js';
import { createPushSender } from '../../../src/server/push/sender.js';
import { isPublicAddress } from '../../../src/server/push/public-address.js';
import { createReminderScheduler } from '../../../src/server/reminders/start.js';
import { createTestApp } from '../../support/app.js';
import { startPushReceiver } from '../../support/push-receiver.js';

async function setUp(t: TestContext) {
  const receiver = await startPushReceiver();
  const steady = await createTestApp({ PUSH_TEST_ORIGIN: receiver.origin, METRICS_TOKEN: 'metrics-token-0123456789' });
  t.after(async () => {
    await steady.close();
    await receiver.close();
  });
  const errors: object[] = [];
  const log = { info: () => undefined, warn: () => undefined, error: (details: object) => errors.push(details) };
  return { steady, receiver, scheduler: createReminderScheduler(steady.deps, log), errors };
}

test('a push reminder arrives encrypted (aes128gcm) with our VAPID key; decrypted it names the goal, what is left and the goal link', async (t) => {
  const { steady, receiver, scheduler } = await setUp(t);
  // The reminder is set in the morning, before its time: set after it, it would first ring tomorrow (decision 0177).
  steady.clock.advance(Date.parse('2026-01-15T06:00:00Z') - steady.clock.now());
  const anna = await steady.register('anna@example.com');
  await anna.patch('/api/me', { locale: 'de' });
  await anna.patch('/api/preferences', { timezone: 'Europe/Berlin' });
  const id = (
    await anna.post('/api/goals', { name: 'Liegestütze', unit: 'Wdh.', daily: 50, days: 30, start: '2026-01-01' })
  ).body.id;
  await anna.post(`/api/goals/${id}/sets/2026-01-15`, { amount: 35 });
  assert.equal((await anna.put(`/api/goals/${id}/reminder`, { time: '09:00', channel: 'push' })).status, 200);
  for (const path of ['/push/phone', '/push/laptop']) {
    const stored = await anna.post('/api/push/subscriptions', receiver.subscription(path));
    assert.equal(stored.status, 200, stored.text);
  }

  steady.clock.advance(Date.parse('2026-01-15T09:00:00+01:00') - steady.clock.now());
  assert.equal(await scheduler.check(), 1);
  assert.equal(receiver.pushes.length, 2, 'every browser of the user');
  const push = receiver.pushes[0]!;
  assert.deepEqual(JSON.parse(push.text), {
    title: 'Liegestütze',
    body: 'Heute noch 15\u00a0Wdh. (35 von 50)',
    url: `http://steady.test/#/goal/${id}`,
  });
  assert.equal(push.headers['content-encoding'], 'aes128gcm');
  assert.ok(Number(push.headers.ttl) > 0);
  const publicKey = (await anna.get('/api/push/key')).body.public_key;
  assert.match(String(push.headers.authorization), new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
});

test('a 404 or 410 from the push service removes the subscription; with none left the reminder is given up and counted', async (t) => {
  const { steady, receiver, scheduler, errors } = await setUp(t);
  // The reminder is set in the morning, before its time: set after it, it would first ring tomorrow (decision 0177).
  steady.clock.advance(Date.parse('2026-01-15T06:00:00Z') - steady.clock.now());
  const anna = await steady.register('anna@example.com');
  const id = (await anna.post('/api/goals', { name: 'Walk', daily: 1, days: 30, start: '2026-01-01' })).body.id;
  await anna.put(`/api/goals/${id}/reminder`, { time: '08:00', channel: 'push' });
  await anna.post('/api/push/subscriptions', receiver.subscription('/push/gone'));
  await anna.post('/api/push/subscriptions', receiver.subscription('/push/unknown'));
  receiver.answer('/push/gone', 410);
  receiver.answer('/push/unknown', 404);

  steady.clock.advance(Date.parse('2026-01-15T08:00:00Z') - steady.clock.now());
  assert.equal(await scheduler.check(), 0);
  assert.deepEqual(await steady.deps.db.selectFrom('push_subscriptions').selectAll().execute(), []);
  assert.equal(errors.length, 1);
  assert.match(
    await steady.deps.metrics.registry!.getSingleMetricAsString('steady_reminders_total'),
    /result="failed",channel="push"} 1/,
  );
});

test('at send time too: a stored endpoint on a private address or a name resolving to loopback is never contacted', async (t) => {
  const { steady, receiver, scheduler } = await setUp(t);
  // The reminder is set in the morning, before its time: set after it, it would first ring tomorrow (decision 0177).
  steady.clock.advance(Date.parse('2026-01-15T06:00:00Z') - steady.clock.now());
  const anna = await steady.register('anna@example.com');
  const userId = (await anna.get('/api/me')).body.id as number;
  const id = (await anna.post('/api/goals', { name: 'Walk', daily: 1, days: 30, start: '2026-01-01' })).body.id;
  await anna.put(`/api/goals/${id}/reminder`, { time: '08:00', channel: 'push' });
  const port = new URL(receiver.origin).port;
  const { keys } = receiver.subscription('/push/x');
  // Rows written behind the API's back (say, by an older version): the sender checks again.
  for (const endpoint of [
    `https://127.0.0.1:${port}/push/x`,
    `https://localhost:${port}/push/x`,
    `http://localhost:${port}/push/x`,
  ]) {
    await steady.deps.db
      .insertInto('push_subscriptions')
      .values({ user_id: userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, created_at: 0 })
      .execute();
  }
  steady.clock.advance(Date.parse('2026-01-15T08:00:00Z') - steady.clock.now());
  assert.equal(await scheduler.check(), 0);
  assert.equal(receiver.pushes.length, 0);

  // The socket's lookup refuses names that resolve to non-public addresses (DNS rebinding after subscribing).
  const refused = await new Promise<Error | null>((resolve) =>
    publicOnlyLookup('localhost', { all: false }, (error) => resolve(error)),
  );
  assert.match(String(refused), /non-public/);
});

test('isPublicAddress: loopback, private, link-local, CGNAT, multicast, mapped and NAT64 forms are not public', () => {
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    'not an address',
  ]) {
    assert.equal(isPublicAddress(address), false, address);
  }
  for (const address of ['8.8.8.8', '142.250.74.78', '2a00:1450:4001:80b::200a', '::ffff:8.8.8.8']) {
    assert.equal(isPublicAddress(address), true, address);
  }
});

test('one VAPID key pair for every process: two processes asking at once on a fresh database agree', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  // A second connection and sender stand for a second process on the same database.
  const other = await openDatabase(steady.deps.config.database);
  t.after(() => other.close());
  const now = () => steady.clock.now();
  const [first, second] = await Promise.all([
    createPushSender(steady.deps.config, steady.deps.db, now).publicKey(),
    createPushSender(steady.deps.config, other.db, now).publicKey(),
  ]);
  assert.equal(first, second);
  const anna = await steady.register('anna@example.com');
  assert.equal((await anna.get('/api/push/key')).body.public_key, first);
});
