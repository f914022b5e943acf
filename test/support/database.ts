import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { parseDatabaseUrl } from '../../src/server/config.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/open.js';
import type { Database } from '../../src/server/db/schema.js';

/**
 * A fresh, empty database for one test app. SQLite by default (a file in a new temp folder); PostgreSQL when
 * TEST_DB=postgres, as a new database on TEST_PG_URL (default: the local server) that is dropped afterwards.
 */
export interface TestDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function testDatabaseKind(): 'sqlite' | 'postgres' {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

/** `kind` defaults to TEST_DB's; tests that need both engines (steady copy) name it. */
export async function createTestDatabase(kind: 'sqlite' | 'postgres' = testDatabaseKind()): Promise<TestDatabase> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'steady-test-'));
  const removeDir = () => fs.rm(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    return { url: `sqlite:${path.join(dataDir, 'steady.db')}`, dataDir, drop: removeDir };
  }
  const name = `steady_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    dataDir,
    async drop() {
      await withAdminClient(async (client) => {
        // pg's pool.end() resolves before its sockets are closed; forcing the drop while a backend still runs would
        // send a closing client an error it reports as uncaught, failing whichever test runs then.
        await waitForNoConnections(client, name);
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
      await removeDir();
    },
  };
}

async function waitForNoConnections(client: pg.Client, database: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const result = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database]);
    if (result.rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function withAdminClient(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

export type OpenTestDatabase = DatabaseHandle & { url: string; closeAndDrop(): Promise<void> };

/** A fresh database with every migration, opened as the server opens it; `closeAndDrop` ends it. */
export async function openTestDatabase(kind: 'sqlite' | 'postgres' = testDatabaseKind()): Promise<OpenTestDatabase> {
  const testDb = await createTestDatabase(kind);
  const handle = await openDatabase(parseDatabaseUrl(testDb.url));
  await migrateToLatest(handle.db, handle.dialect);
  return {
    ...handle,
    url: testDb.url,
    async closeAndDrop() {
      await handle.close();
      await testDb.drop();
    },
  };
}

/** A user row for store tests (no password: nobody logs in); its id. */
export async function insertTestUser(db: Kysely<Database>, email: string, name = email): Promise<number> {
  const { id } = await db
    .insertInto('users')
    .values({ email, password_hash: 'not a hash', name, locale: 'en', created_at: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
