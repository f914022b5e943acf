import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import pg from 'pg';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { LOCK_WAIT_NOTICE_MS, MIGRATION_LOCK_KEY, migrateToLatest } from '../../../src/server/db/migrate.js';
import { migrations } from '../../../src/server/db/migrations/index.js';
import { DATABASE_TIMEOUTS, openDatabase } from '../../../src/server/db/open.js';
import { projectRoot } from '../../../src/server/paths.js';
import { createTestDatabase } from '../../support/database.js';
import { GOING_ON, holdMigrationLock, migrateWatched, WAITING } from '../../support/migration-lock.js';
import { freePort, startServerProcess } from '../../support/server-process.js';
import { until } from '../../support/waiting.js';

function migrateProcess(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'migrate'],
      { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test(
  'processes migrating one fresh PostgreSQL database at once: one applies every migration once, the others find it done',
  { timeout: 120_000 },
  async (t) => {
    const database = await createTestDatabase('postgres');
    t.after(() => database.drop());
    const env = { DATABASE_URL: database.url, DATA_DIR: database.dataDir, LOG_LEVEL: 'silent' };

    const runs = await Promise.all([migrateProcess(env), migrateProcess(env), migrateProcess(env)]);
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const names = Object.keys(migrations);
    const outputs = runs.map((run) => run.stdout).sort();
    assert.deepEqual(outputs, [
      `Applied migrations: ${names.join(', ')}\n`,
      'The database is up to date.\n',
      'The database is up to date.\n',
    ]);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const applied = await client.query('SELECT name FROM kysely_migration ORDER BY name');
      assert.deepEqual(
        applied.rows.map((row) => row.name),
        names,
      );
    } finally {
      await client.end();
    }
  },
);

test(
  "a process waits for another one's migrations beyond the request deadlines, then finds them applied",
  { timeout: 60_000 },
  async (t) => {
    const database = await createTestDatabase('postgres');
    t.after(() => database.drop());
    const other = new pg.Client({ connectionString: database.url });
    const ordinary = await openDatabase(parseDatabaseUrl(database.url));
    const patient = await openDatabase(parseDatabaseUrl(database.url), { patient: true });
    await other.connect();
    try {
      // Another process is migrating (holds the lock) for longer than a request may wait for a statement.
      await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await assert.rejects(
        migrateToLatest(ordinary.db, 'postgres'),
        (error: { code?: string }) => error.code === '57014',
      );

      const migrating = migrateToLatest(patient.db, 'postgres');
      await new Promise((resolve) => setTimeout(resolve, DATABASE_TIMEOUTS.queryMs + 500));
      await other.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      assert.deepEqual(await migrating, Object.keys(migrations));
    } finally {
      await Promise.all([other.end(), ordinary.close(), patient.close()]);
    }
  },
);

for (const engine of ['postgres', 'sqlite'] as const) {
  test(
    `a server start on ${engine} waiting for another process's migration says so after a second, and says when it goes on`,
    { timeout: 60_000 },
    async (t) => {
      const database = await createTestDatabase(engine);
      t.after(() => database.drop());
      const lock = await holdMigrationLock(engine, database.url);
      const port = await freePort();
      const server = startServerProcess({
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        BASE_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'info',
      });
      try {
        const started = Date.now();
        await server.waitForLine((line) => line.msg === WAITING, 10_000);
        assert.ok(Date.now() - started >= LOCK_WAIT_NOTICE_MS, 'said only after a moment of waiting');
        await lock.release();
        const goingOn = await server.waitForLine((line) => line.msg === GOING_ON);
        assert.ok(goingOn.waitedMs >= LOCK_WAIT_NOTICE_MS, String(goingOn.waitedMs));
        await server.waitForLine((line) => typeof line.inviteUrl === 'string');
      } finally {
        server.kill();
        await server.exited;
      }
    },
  );

  test(
    `steady migrate on ${engine} waiting for another process's migration says so on stderr, and when it goes on`,
    { timeout: 60_000 },
    async (t) => {
      const database = await createTestDatabase(engine);
      t.after(() => database.drop());
      const lock = await holdMigrationLock(engine, database.url);
      const run = migrateWatched({ DATABASE_URL: database.url, DATA_DIR: database.dataDir });
      try {
        const started = Date.now();
        await until('the wait is told', () => run.stderr().includes(WAITING));
        assert.ok(Date.now() - started >= LOCK_WAIT_NOTICE_MS, 'said only after a moment of waiting');
        assert.equal(run.stdout(), '', 'stdout is left to the result');
        await lock.release();
        assert.equal(await run.exited, 0, run.stderr());
        assert.match(run.stderr(), new RegExp(`^steady: ${WAITING.replace(/[()]/g, '\\$&')}\n`));
        assert.match(run.stderr(), new RegExp(`\nsteady: ${GOING_ON} \\(waited \\d+\\.\\d s\\)\n$`));
        assert.equal(run.stdout(), `Applied migrations: ${Object.keys(migrations).join(', ')}\n`);
      } finally {
        run.kill();
        await run.exited;
      }
    },
  );
}
