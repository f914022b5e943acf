import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type DatabaseConfig, parseDatabaseUrl } from '../../../src/server/config.js';
import { listDataTables, readRows } from '../../../src/server/db/copy-store.js';
import { openDatabase } from '../../../src/server/db/open.js';
import { BASE_URL, createTestApp, PASSWORD, TEST_SECRET_KEY } from '../../support/app.js';
import { steady } from '../../support/cli.js';
import { createTestDatabase } from '../../support/database.js';

const urlOf = (database: DatabaseConfig) => (database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url);
const envOf = (databaseUrl: string, dataDir: string) => ({
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  BASE_URL,
  SECRET_KEY: TEST_SECRET_KEY,
  LOG_LEVEL: 'silent',
});

/** Every row of every table, in a stable order. */
async function dump(url: string): Promise<Record<string, unknown[]>> {
  const handle = await openDatabase(parseDatabaseUrl(url));
  try {
    const tables: Record<string, unknown[]> = {};
    for (const table of await listDataTables(handle.db)) tables[table.name] = await readRows(handle.db, table);
    return tables;
  } finally {
    await handle.close();
  }
}

test(
  'steady copy: SQLite -> PostgreSQL -> SQLite gives the same rows; ids, passwords and pending invite links keep working; a non-empty target is refused',
  { timeout: 180_000 },
  async (t) => {
    // The source is always SQLite here, whatever TEST_DB says: the test is about moving between the two engines.
    const sourceDb = await createTestDatabase('sqlite');
    const source = await createTestApp({
      DATABASE_URL: `sqlite:${sourceDb.dataDir}/steady.db`,
      DATA_DIR: sourceDb.dataDir,
    });
    const postgres = await createTestDatabase('postgres');
    const back = await createTestDatabase('sqlite');
    let server: Awaited<ReturnType<typeof createTestApp>> | undefined = undefined;
    t.after(async () => {
      await server?.close();
      await source.close();
      await sourceDb.drop();
      await postgres.drop();
      await back.drop();
    });

    const anna = await source.register('anna@example.com', { name: 'Anna 🦊' });
    const ben = await source.register('ben@example.com');
    await ben.post('/api/goals', { name: 'Ben first' });
    const goal = (
      await anna.post('/api/goals', {
        name: 'Push-ups 💪',
        daily: 0.1,
        start: '2020-02-29 12:00:00',
        sets: { '2026-01-14': [0.1, 0.2, -3] },
      })
    ).body;
    const second = (await anna.post('/api/goals', { name: 'Second' })).body.id;
    await anna.put('/api/goal-layout/order', { ids: [second, goal.id] });
    await anna.post(`/api/goals/${goal.id}/archive`);
    const pending = (await anna.post('/api/invite', { note: 'for Carl' })).body.url as string;
    await anna.post('/api/change-password', { old_password: 'wrong wrong', new_password: 'whatever 123' });
    await source.client().post('/api/reset-request', { email: 'ben@example.com' });
    // Reminders (issue 11): preferences, a reminder, a push subscription, a send logged, the VAPID pair.
    await anna.patch('/api/preferences', { timezone: 'Europe/Warsaw' });
    await anna.put(`/api/goals/${goal.id}/reminder`, { time: '07:30', channel: 'push' });
    const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
    await anna.post('/api/push/subscriptions', { endpoint: 'https://8.8.8.8/push/1', keys });
    await anna.get('/api/push/key');
    await source.deps.db
      .insertInto('reminder_sends')
      .values({
        goal_id: Number(goal.id),
        local_date: '2026-01-15',
        user_id: (await anna.get('/api/me')).body.id,
        channel: 'push',
        status: 'sent',
        attempts: 1,
        claimed_at: 1,
        next_try_at: null,
        finished_at: 2,
      })
      .execute();
    const sourceUrl = urlOf(source.deps.config.database);
    const original = await dump(sourceUrl);
    for (const table of ['preferences', 'reminders', 'push_subscriptions', 'reminder_sends']) {
      assert.equal(original[table]?.length, 1, table);
    }

    const toPg = await steady(['copy', '--to', postgres.url], envOf(sourceUrl, sourceDb.dataDir));
    assert.equal(toPg.stderr, '');
    assert.equal(toPg.code, 0);
    assert.match(toPg.stdout, /^users\s+2$/m);
    assert.match(toPg.stdout, /^goals\s+3$/m);
    assert.match(toPg.stdout, /^goal_layout\s+2$/m);
    assert.match(toPg.stdout, /Copied \d+ rows in \d+ tables from SQLite .* to PostgreSQL .*; the counts match\./);
    assert.deepEqual(await dump(postgres.url), original);

    // Into a database that has data: refused, exit code not 0, nothing changed.
    const again = await steady(['copy', '--to', postgres.url], envOf(sourceUrl, sourceDb.dataDir));
    assert.equal(again.code, 1);
    assert.match(again.stderr, /the target is not empty \(\w+ has \d+ rows\)/);
    assert.deepEqual(await dump(postgres.url), original);

    const backUrl = `sqlite:${back.dataDir}/steady.db`;
    const toSqlite = await steady(['copy', '--to', backUrl], envOf(postgres.url, postgres.dataDir));
    assert.equal(toSqlite.code, 0, toSqlite.stderr);
    assert.deepEqual(await dump(backUrl), original);

    // A server on the PostgreSQL copy: the password works, goal links keep their ids, new ids continue after the old.
    server = await createTestApp({ DATABASE_URL: postgres.url, DATA_DIR: postgres.dataDir });
    const client = server.client();
    assert.equal((await client.post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 200);
    const goals = (await client.get('/api/goals')).body;
    assert.deepEqual(goals[0], goal);
    const created = (await client.post('/api/goals', { name: 'New after the move' })).body;
    assert.ok(Number(created.id) > Number(goals[1].id));
    assert.deepEqual((await client.get('/api/goal-layout')).body, {
      order: [goals[1].id, goal.id, created.id],
      archived: [goal.id],
    });
    const invites = (await client.get('/api/invites')).body;
    assert.equal(invites.find((invite: { note: string }) => invite.note === 'for Carl').url, pending);
    const token = new URL(pending).searchParams.get('invite');
    assert.equal(
      (await server.client().post('/api/register', { email: 'carl@example.com', password: PASSWORD, token })).status,
      200,
    );
  },
);

test('steady copy without --to, or with a bad URL, is a usage error (exit 2)', { timeout: 60_000 }, async (t) => {
  const database = await createTestDatabase('sqlite');
  t.after(() => database.drop());
  const env = envOf(`sqlite:${database.dataDir}/steady.db`, database.dataDir);
  assert.equal((await steady(['copy'], env)).code, 2);
  const bad = await steady(['copy', '--to', 'mysql://x'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^steady copy: --to must start with sqlite: or postgres:\/\//);
  assert.equal((await steady(['copy', '--to', `sqlite:${database.dataDir}/steady.db`], env)).code, 1);
});
