/**
 * A PostgreSQL that accepts the connection and then goes silent in the middle of the first query (a network gone, a
 * host frozen) must fail a CLI command and a server start within the query deadline, not hold them forever: both
 * migrate first, and migrations run without deadlines (decisions 0051, 0172).
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import pg from 'pg';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { migrateToLatest } from '../../../src/server/db/migrate.js';
import { DATABASE_TIMEOUTS, openDatabase } from '../../../src/server/db/open.js';
import { steady } from '../../support/cli.js';
import { createTestDatabase } from '../../support/database.js';
import { startServerProcess } from '../../support/server-process.js';
import { startTcpGate } from '../../support/tcp-gate.js';
import { someoneWaitsForATable, until } from '../../support/waiting.js';
import { cliEnv } from '../cli/support.js';

/** The query deadline, a process start and a margin for a slow machine; a process that hangs is killed after it. */
const LIMIT_MS = DATABASE_TIMEOUTS.queryMs + 30_000;

/**
 * A migrated PostgreSQL database reached through a TCP gate. Kysely's migration table is locked until the process
 * under test waits for it; then the gate stops forwarding and the lock is let go, so the answer that process waits
 * for is never delivered. `silenced` resolves once that happened.
 */
async function databaseGoingSilent(t: TestContext) {
  const database = await createTestDatabase('postgres');
  const direct = await openDatabase(parseDatabaseUrl(database.url));
  await migrateToLatest(direct.db, 'postgres');
  const target = new URL(database.url);
  const gate = await startTcpGate(target.hostname, Number(target.port || 5432));
  const gated = new URL(database.url);
  gated.port = String(gate.port);
  // Never asked for (trust authentication), and never to be shown.
  gated.password = 'secret-password';
  const holder = new pg.Client({ connectionString: database.url });
  await holder.connect();
  t.after(async () => {
    await gate.stop();
    await holder.end();
    await direct.close();
    await database.drop();
  });
  await holder.query('BEGIN');
  await holder.query('LOCK TABLE kysely_migration IN ACCESS EXCLUSIVE MODE');
  const silenced = (async () => {
    await until('the process under test waits for the locked table', () => someoneWaitsForATable(direct.db));
    gate.stall();
    await holder.query('COMMIT');
  })();
  // Awaited once the process ended; a failure before that is still reported there, not as an unhandled rejection.
  silenced.catch(() => undefined);
  return { url: gated.href, address: `${gated.host}${gated.pathname}`, dataDir: database.dataDir, silenced };
}

test(
  'a CLI command against a PostgreSQL that goes silent mid-query ends within the query deadline (exit 1, one line)',
  { timeout: 90_000 },
  async (t) => {
    const database = await databaseGoingSilent(t);
    const started = performance.now();
    const run = await steady(['users'], cliEnv(database.url, database.dataDir), { timeoutMs: LIMIT_MS });
    const ms = Math.round(performance.now() - started);
    await database.silenced;
    // Before: no deadline on the migration handle, so it waited until killed (code null) after LIMIT_MS.
    assert.equal(run.code, 1, `after ${ms} ms: ${run.stderr}`);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, `steady users: the database at ${database.address} did not answer (DATABASE_URL)\n`);
  },
);

test(
  'a server start against a PostgreSQL that goes silent mid-query fails within the query deadline (exit 1)',
  { timeout: 90_000 },
  async (t) => {
    const database = await databaseGoingSilent(t);
    const server = startServerProcess({
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      BASE_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'silent',
    });
    t.after(() => server.kill());
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      server.exited,
      new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), LIMIT_MS))),
    ]);
    clearTimeout(timer);
    assert.equal(code, 1, `the server's stderr: ${server.errors()}`);
    await database.silenced;
    // The same words as the CLI's (before: "Query read timeout", naming neither the database nor the setting).
    assert.equal(
      server.errors(),
      `steady: failed to start: the database at ${database.address} did not answer (DATABASE_URL)\n`,
    );
  },
);
