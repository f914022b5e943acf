import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { THROTTLE_RULES } from '../../../src/server/auth/throttle.js';
import { deleteUserEverywhere } from '../../../src/server/data/store.js';
import { createReminderScheduler } from '../../../src/server/reminders/start.js';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';
import { loggedDatabase } from '../../support/logged-database.js';

let steady: TestApp;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const USER_REFERENCE_COLUMNS = new Set(['user_id', 'created_by', 'used_by']);
/** Session ids seen per user id, so a count after the deletion still looks for their throttle buckets. */
const knownSessionIds = new Map<number, number[]>();

/**
 * For every table of the database (whatever migrations made it), the rows that belong to the user: a column that
 * refers to users holds their id, or a text column holds their e-mail or a throttle key named after their id or
 * one of their sessions (those alive when the count starts: deletion ends them, their buckets must go too).
 */
async function rowsOfUser(user: { id: number; email: string }): Promise<Record<string, number>> {
  const db = steady.deps.db;
  const sessionIds = (await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).map(
    (row) => row.id,
  );
  knownSessionIds.set(user.id, [...new Set([...(knownSessionIds.get(user.id) ?? []), ...sessionIds])]);
  const namedKey = new RegExp(`^[A-Za-z]+:(${[user.id, ...knownSessionIds.get(user.id)!].join('|')})$`);
  const counts: Record<string, number> = {};
  for (const table of await db.introspection.getTables()) {
    if (table.name.startsWith('kysely_')) continue;
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(db)).rows;
    counts[table.name] = rows.filter((row) =>
      Object.entries(row).some(([column, value]) => {
        if (USER_REFERENCE_COLUMNS.has(column) || (table.name === 'users' && column === 'id'))
          return Number(value) === user.id;
        return typeof value === 'string' && (value.includes(user.email) || namedKey.test(value));
      }),
    ).length;
  }
  return counts;
}

async function inviteTokenFrom(client: TestClient): Promise<string> {
  const { url } = (await client.post('/api/invite', { note: 'for a friend' })).body;
  return new URL(url).searchParams.get('invite')!;
}

async function registerWith(token: string, email: string): Promise<TestClient> {
  const client = steady.client();
  const answer = await client.post('/api/register', { email, password: PASSWORD, token });
  assert.equal(answer.status, 200, answer.text);
  return client;
}

const deleteMe = (client: TestClient, password: string) => client.request('DELETE', '/api/me', { password });

test('DELETE /api/me removes every row of the user in every table, logs out every device, and the address can register again', async () => {
  const ben = await steady.register('ben@example.com');
  // Anna registered with Ben's invite; Carl with Anna's.
  const anna = await registerWith(await inviteTokenFrom(ben), 'anna@example.com');
  const carl = await registerWith(await inviteTokenFrom(anna), 'carl@example.com');
  await inviteTokenFrom(anna);
  const pushUps = (await anna.post('/api/goals', { name: 'Push-ups', daily: 50, sets: { '2026-01-15': [5] } })).body.id;
  const reading = (await anna.post('/api/goals', { name: 'Reading' })).body.id;
  await anna.put('/api/goal-layout/order', { ids: [reading, pushUps] });
  await anna.post(`/api/goals/${reading}/archive`);
  // Reminders (issue 11): a time zone, a reminder that was sent once, a push subscription.
  await anna.patch('/api/preferences', { timezone: 'Europe/Berlin' });
  // 10:00 in Berlin, the clock's time: due at once (one set for a time already past would wait for tomorrow).
  await anna.put(`/api/goals/${pushUps}/reminder`, { time: '10:00', channel: 'email' });
  const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
  await anna.post('/api/push/subscriptions', { endpoint: 'https://8.8.8.8/push/anna', keys });
  await createReminderScheduler(steady.deps, { info() {}, warn() {}, error() {} }).check();
  // An import with an Idempotency-Key (decision 0127) leaves its key behind.
  const exported = (await anna.get('/api/export')).body;
  assert.equal((await anna.post('/api/import', exported, { 'idempotency-key': 'anna-import' })).status, 200);
  const annaPhone = steady.client();
  assert.equal((await annaPhone.post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 200);
  assert.equal((await steady.client().post('/api/reset-request', { email: 'anna@example.com' })).status, 200);
  assert.equal(
    (await anna.post('/api/change-password', { old_password: 'not my password', new_password: 'whatever 123' })).status,
    400,
  );
  const me = (await anna.get('/api/me')).body;
  const annaUser = { id: me.id as number, email: 'anna@example.com' };

  const before = await rowsOfUser(annaUser);
  for (const table of [
    'users',
    'goals',
    'goal_entries',
    'goal_layout',
    'sessions',
    'remember_tokens',
    'password_resets',
    'invites',
    'throttle_buckets',
    'preferences',
    'reminders',
    'push_subscriptions',
    'reminder_sends',
    'request_keys',
  ]) {
    assert.ok((before[table] ?? 0) > 0, `anna has rows in ${table} before: ${JSON.stringify(before)}`);
  }
  const othersBefore = await rowsOfUser({ id: (await ben.get('/api/me')).body.id, email: 'ben@example.com' });

  const deleted = await deleteMe(anna, PASSWORD);
  assert.equal(deleted.status, 200, deleted.text);
  assert.deepEqual(deleted.body, { ok: true });

  const after = await rowsOfUser(annaUser);
  assert.deepEqual(after, Object.fromEntries(Object.keys(before).map((table) => [table, 0])));
  // Ben's rows are untouched; the invite Anna used stays in his list as used, without her address (decision 0072).
  assert.deepEqual(
    await rowsOfUser({ id: (await ben.get('/api/me')).body.id, email: 'ben@example.com' }),
    othersBefore,
  );
  const bensInvites = (await ben.get('/api/invites')).body;
  assert.equal(bensInvites.length, 1);
  assert.equal(bensInvites[0].status, 'used');
  assert.equal(bensInvites[0].used_by_email, null);
  assert.equal(bensInvites[0].used_at, '2026-01-15T09:00:00.000Z');

  // Every device is logged out (session and remember-me cookies alike); Carl is not affected.
  for (const device of [anna, annaPhone]) assert.equal((await device.get('/api/goals')).status, 401);
  const phoneCopy = annaPhone.clone();
  phoneCopy.cookies.delete('steady_session');
  assert.equal((await phoneCopy.get('/api/me')).status, 401);
  assert.equal((await carl.get('/api/me')).status, 200);
  assert.equal(
    (await steady.client().post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status,
    401,
  );

  // The address can be registered again with a new invite, starting empty.
  const again = await registerWith(await inviteTokenFrom(ben), 'anna@example.com');
  assert.deepEqual((await again.get('/api/goals')).body, []);
  assert.deepEqual((await again.get('/api/invites')).body, []);
});

test("a wrong password answers 400 wrong_password and deletes nothing; attempts share change-password's throttle (429)", async () => {
  const dora = await steady.register('dora@example.com');
  await dora.post('/api/goals', { name: 'Kept' });
  const user = { id: (await dora.get('/api/me')).body.id as number, email: 'dora@example.com' };
  const before = await rowsOfUser(user);

  const wrong = await deleteMe(dora, 'not my password');
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.code, 'wrong_password');
  assert.equal(wrong.body.field, 'password', 'the refusal names the password field');
  const empty = await deleteMe(dora, '');
  assert.equal(empty.status, 400);
  assert.equal(empty.body.code, 'missing_field');
  // Only the attempt itself is recorded (its throttle bucket).
  assert.deepEqual(await rowsOfUser(user), { ...before, throttle_buckets: 1 });

  // One attempt spent above, the rest of the burst on change-password: the next deletion attempt is throttled.
  for (let i = 1; i < THROTTLE_RULES.changePasswordPerSession.capacity; i++) {
    assert.equal(
      (await dora.post('/api/change-password', { old_password: 'nope nope', new_password: 'whatever 123' })).status,
      400,
    );
  }
  const throttled = await deleteMe(dora, PASSWORD);
  assert.equal(throttled.status, 429);
  assert.ok(Number(throttled.headers['retry-after']) > 0);
  assert.deepEqual(
    (await dora.get('/api/goals')).body.map((g: { name: string }) => g.name),
    ['Kept'],
  );

  steady.clock.advance(THROTTLE_RULES.changePasswordPerSession.refillMs);
  assert.equal((await deleteMe(dora, PASSWORD)).status, 200);
  assert.equal(
    (await steady.client().post('/api/login', { email: 'dora@example.com', password: PASSWORD })).status,
    401,
  );
});

test('DELETE /api/me needs a session', async () => {
  const answer = await steady.client().request('DELETE', '/api/me', { password: PASSWORD });
  assert.equal(answer.status, 401);
});

test("deletion finds the address's per-client reset buckets through the primary key, and only that address's", async (t) => {
  // Requests from two client addresses, as a proxy on this machine names them.
  const steady = await createTestApp({ TRUST_PROXY: 'loopback' });
  t.after(() => steady.close());
  const email = 'erik@example.com';
  const erik = await steady.register(email);
  const { id } = (await erik.get('/api/me')).body as { id: number };
  // Reset requests for Erik from two clients, and for addresses that start alike from the same clients.
  const others = ['erik@example.co', 'erik@example.com.au', 'erik@example.com x'];
  for (const client of ['198.51.100.7', '2001:db8::1']) {
    for (const address of [email, ...others]) {
      const asked = await steady.client().post('/api/reset-request', { email: address }, { 'x-forwarded-for': client });
      assert.equal(asked.status, 200);
    }
  }
  const buckets = async () =>
    (await steady.deps.db.selectFrom('throttle_buckets').select('key').execute()).map((row) => row.key);
  const before = await buckets();
  const perClient = (keys: string[]) => keys.filter((key) => key.startsWith('resetMailPerClientAndEmail:')).sort();
  assert.equal(perClient(before).length, 8, before.join('\n'));

  const logged = loggedDatabase(steady.deps.config.database);
  try {
    await deleteUserEverywhere(logged.db, { id, email }, steady.clock.now());
    const lookup = logged.queries.find((query) => /^select .* from "throttle_buckets"/.test(query.sql));
    assert.ok(lookup, logged.statements.join('\n'));
    // Only this address's buckets: the keys from `…:<email> ` up to `…:<email>!` (decision 0207).
    assert.deepEqual(lookup.parameters, [
      `resetMailPerClientAndEmail:${email} `,
      `resetMailPerClientAndEmail:${email}!`,
    ]);
    if (steady.deps.config.database.kind === 'sqlite') {
      const plan = await logged.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${lookup.sql}`, [...lookup.parameters]),
      );
      const details = plan.rows.map((row) => row.detail).join('\n');
      assert.match(details, /^SEARCH throttle_buckets USING (COVERING )?INDEX \S+ \(key>\? AND key<\?\)$/, details);
    } else {
      // On a small table PostgreSQL would read it whole anyway; without sequential scans it shows what it can use.
      await logged.db.connection().execute(async (connection) => {
        await sql`set enable_seqscan = off`.execute(connection);
        const plan = await connection.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${lookup.sql}`, [...lookup.parameters]),
        );
        const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        assert.match(text, /Index (Only )?Scan (using|on) throttle_buckets_pkey/, text);
        assert.match(text, /Index Cond: \(\(key >= .*\) AND \(key < .*\)\)/, text);
        assert.doesNotMatch(text, /Seq Scan/, text);
        await sql`reset enable_seqscan`.execute(connection);
      });
      // The range is the keys that start alike only when keys compare byte by byte, whatever the database's collation.
      const { rows } = await sql<{ collation_name: string }>`select collation_name from information_schema.columns
        where table_name = 'throttle_buckets' and column_name = 'key'`.execute(logged.db);
      assert.deepEqual(rows, [{ collation_name: 'C' }]);
    }
  } finally {
    await logged.close();
  }
  assert.deepEqual(
    perClient(await buckets()),
    perClient(before).filter((key) => others.some((other) => key.includes(`:${other} `))),
    "Erik's buckets went, those of the other addresses stayed",
  );
});
