import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { appliedMigrationNames } from '../../../src/server/db/migration-store.js';
import { migrations } from '../../../src/server/db/migrations/index.js';
import { openDatabase } from '../../../src/server/db/open.js';
import { steady } from '../../support/cli.js';
import { holdMigrationLock, migrateWatched, WAITING } from '../../support/migration-lock.js';
import { olderDatabase } from '../../support/migrations.js';
import { freePort, startServerProcess } from '../../support/server-process.js';
import { until } from '../../support/waiting.js';

// Decision 0211: a run of migrations is one transaction on both engines, and on SQLite it holds the write lock from
// before Kysely reads what is applied until the commit.

const RESET = 'resetMailPerClientAndEmail:';

/** The migrations' state as `url`'s database holds it: names applied, throttle keys, whether 0013's table exists. */
async function databaseState(url: string) {
  const handle = await openDatabase(parseDatabaseUrl(url));
  try {
    const tables = await handle.db.introspection.getTables();
    const keys = await handle.db.selectFrom('throttle_buckets').select('key').execute();
    return {
      applied: await appliedMigrationNames(handle.db),
      keys: keys.map((row) => row.key).sort(),
      goneLogins: tables.some((table) => table.name === 'gone_logins'),
    };
  } finally {
    await handle.close();
  }
}

/**
 * Old-form reset buckets (`<client> <email>`), enough that migration 0014 takes a moment, as a data migration on a
 * database in use does: two starts that find the write lock free up to a poll (100 ms) apart then both find 0014
 * pending unless the first one's run holds the lock throughout.
 */
const BUCKETS = 5_000;
const clientOf = (i: number) => `10.0.${Math.floor(i / 256)}.${i % 256}`;

test(
  'a server start and steady migrate on one SQLite file at the same moment: migration 0014 runs once, by one of them',
  { timeout: 120_000 },
  async (t) => {
    const { database, db, close } = await olderDatabase('0014', 'sqlite');
    t.after(() => database.drop());
    for (let from = 0; from < BUCKETS; from += 1_000) {
      const rows = Array.from({ length: 1_000 }, (_, n) => from + n).map((i) => ({
        key: `${RESET}${clientOf(i)} user${i}@example.com`,
        tokens: 0,
        // Just used, so the server's housekeeping keeps them.
        updated_at: Date.now(),
      }));
      await db.insertInto('throttle_buckets').values(rows).execute();
    }
    await close();

    // Both processes start while the test holds the write lock, and wait for it (each says so after a second), so
    // that they go on together when it is released: neither has begun migrating before the other looked.
    const lock = await holdMigrationLock('sqlite', database.url);
    const env = { DATABASE_URL: database.url, DATA_DIR: database.dataDir };
    const port = await freePort();
    const server = startServerProcess({
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
    });
    const cli = migrateWatched(env);
    try {
      await server.waitForLine((line) => line.msg === WAITING);
      await until('steady migrate waits for the lock', () => cli.stderr().includes(WAITING));
      await lock.release();

      assert.equal(await cli.exited, 0, cli.stderr());
      await server.waitForLine((line) => String(line.msg).startsWith('Steady is running'));
      assert.ok(
        [
          'Applied migrations: 0014_throttle_keys_by_address, 0015_sqlite_entries_read_through_goals\n',
          'The database is up to date.\n',
        ].includes(cli.stdout()),
        cli.stdout(),
      );
    } finally {
      server.kill();
      cli.kill();
      await Promise.all([server.exited, cli.exited]);
    }

    const state = await databaseState(database.url);
    assert.deepEqual(state.applied, Object.keys(migrations));
    // Each key turned once: turned twice, it would be `<client> <email>` again.
    const turnedOnce = Array.from({ length: BUCKETS }, (_, i) => `${RESET}user${i}@example.com ${clientOf(i)}`);
    assert.deepEqual(state.keys, turnedOnce.sort());
  },
);

test(
  'a failed migration leaves the database as it was, under steady migrate and a server start, and says which one failed',
  { timeout: 120_000 },
  async (t) => {
    const { database, db, close } = await olderDatabase('0013');
    t.after(() => database.drop());
    const oldKeys = [
      // Turned by 0014 before it fails: kept so only if the run is not rolled back as a whole.
      `${RESET}10.0.0.1 b@example.com`,
      `${RESET}198.51.100.7 a@example.com`,
      // The key 0014 turns the one above into, already there (no real client key looks like this): 0014 fails.
      `${RESET}a@example.com 198.51.100.7`,
    ];
    await db
      .insertInto('throttle_buckets')
      .values(oldKeys.map((key) => ({ key, tokens: 1, updated_at: 1 })))
      .execute();
    await close();
    const env = { DATABASE_URL: database.url, DATA_DIR: database.dataDir };
    const before = await databaseState(database.url);
    assert.equal(before.applied.at(-1), '0012_reminder_time_set_at');

    const said =
      /^migration 0014_throttle_keys_by_address failed: .+\. Rolled back: no migration of this run was applied \(still pending: 0013_gone_logins, 0014_throttle_keys_by_address, 0015_sqlite_entries_read_through_goals\)\n$/;
    const migrate = await steady(['migrate'], env);
    assert.equal(migrate.code, 1, migrate.stderr);
    assert.deepEqual(await databaseState(database.url), before);
    assert.match(migrate.stderr.replace(/^steady migrate: /, ''), said);
    assert.equal(migrate.stdout, '');

    const port = await freePort();
    const server = startServerProcess({ ...env, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` });
    try {
      assert.equal(await server.exited, 1, server.output());
    } finally {
      server.kill();
    }
    assert.deepEqual(await databaseState(database.url), before);
    assert.match(server.errors().replace(/^steady: failed to start: /, ''), said);
    assert.deepEqual(before.keys, [...oldKeys].sort());
    assert.equal(before.goneLogins, false);
  },
);
