import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { FakeClock } from '../../src/server/clock.js';
import { loadConfig } from '../../src/server/config.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/open.js';
import type { AppDeps } from '../../src/server/deps.js';
import { smtpMailer } from '../../src/server/mail/transport.js';
import { createInvite } from '../../src/server/invites/service.js';
import { createTestDatabase } from './database.js';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.js';
import { TestClient } from './client.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const BASE_URL = 'http://steady.test';
export const PASSWORD = 'correct horse battery';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  clock: FakeClock;
  smtp: SmtpReceiver;
  database: DatabaseHandle;
  /** A client without a session. */
  client(): TestClient;
  /** A new invite token made by the operator (as `steady invite` does). */
  inviteToken(): Promise<string>;
  /** Registers a user through the API and returns a client logged in as them. */
  register(email: string, options?: { password?: string; name?: string }): Promise<TestClient>;
  close(): Promise<void>;
}

/**
 * The production `buildApp` on a fresh database (SQLite file, or PostgreSQL with TEST_DB=postgres), a fake clock
 * and a real SMTP receiver. `env` overrides environment variables as an operator would set them.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const testDb = await createTestDatabase();
  const smtp = await startSmtpReceiver();
  const config = loadConfig({
    DATABASE_URL: testDb.url,
    DATA_DIR: testDb.dataDir,
    BASE_URL,
    ADMIN_EMAIL,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const database = openDatabase(config.database);
  await migrateToLatest(database.db, database.dialect);
  const clock = new FakeClock();
  const deps: AppDeps = {
    config,
    db: database.db,
    dialect: database.dialect,
    clock,
    mailer: smtpMailer(config.smtpUrl ?? smtp.url, config.mailFrom),
    secretKey: Buffer.alloc(32, 7),
    webRoot: `${testDb.dataDir}/no-web-build`,
  };
  const app = await buildApp(deps);
  await app.ready();

  const testApp: TestApp = {
    app,
    deps,
    clock,
    smtp,
    database,
    client: () => new TestClient(app, config.baseUrl),
    inviteToken: async () => (await createInvite(deps, null, null)).token,
    async register(email, options = {}) {
      const client = testApp.client();
      const response = await client.post('/api/register', {
        email,
        password: options.password ?? PASSWORD,
        token: await testApp.inviteToken(),
        ...(options.name !== undefined && { name: options.name }),
      });
      if (response.status !== 200) throw new Error(`register ${email} failed: ${response.status} ${response.text}`);
      return client;
    },
    async close() {
      await app.close();
      await database.close();
      await smtp.close();
      await testDb.drop();
    },
  };
  return testApp;
}
