import type { FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import { type BuildOptions, buildApp } from '../../src/server/app.js';
import { FakeClock } from '../../src/server/clock.js';
import { loadConfig } from '../../src/server/config.js';
import type { AppDeps } from '../../src/server/deps.js';
import { createInvite } from '../../src/server/invites/service.js';
import { openServices } from '../../src/server/services.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.js';
import { TestClient } from './client.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const BASE_URL = 'http://steady.test';
export const PASSWORD = 'correct horse battery';
/** The SECRET_KEY every test app runs with, so a CLI process given the same key makes invites the app can show. */
export const TEST_SECRET_KEY = '07'.repeat(32);

/** The header that names a retryable request (decisions 0127, 0130, 0141): `client.post(url, body, keyed('k1'))`. */
export const keyed = (key: string) => ({ 'idempotency-key': key });

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  clock: FakeClock;
  smtp: SmtpReceiver;
  /** A client without a session. */
  client(): TestClient;
  /** A new invite token made by the operator (as `steady invite` does). */
  inviteToken(): Promise<string>;
  /** Registers a user through the API and returns a client logged in as them. */
  register(email: string, options?: { password?: string; name?: string }): Promise<TestClient>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** A logger for the app and the mailer (e.g. one writing to a test's stream); silent when left out. */
  log?: Logger;
  /** buildApp's options, e.g. a short slow-client timeout. */
  build?: BuildOptions;
  /** A database prepared by the test (e.g. at an older migration); dropped on close like a fresh one. */
  database?: TestDatabase;
  /** The built web app to serve; by default a folder that does not exist (the placeholder page). */
  webRoot?: string;
}

/**
 * The production wiring (`openServices`, `buildApp`) on a fresh database (SQLite file, or PostgreSQL with
 * TEST_DB=postgres), a fake clock and a real SMTP receiver as SMTP_URL. `env` overrides environment variables as
 * an operator would set them; `options.log` makes the app log there (as main.ts's logger does).
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const testDb = options.database ?? (await createTestDatabase());
  const smtp = await startSmtpReceiver();
  const config = loadConfig({
    DATABASE_URL: testDb.url,
    DATA_DIR: testDb.dataDir,
    BASE_URL,
    ADMIN_EMAIL,
    SMTP_URL: smtp.url,
    SECRET_KEY: TEST_SECRET_KEY,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const clock = new FakeClock();
  const log = options.log ?? pino({ level: config.logLevel });
  const services = await openServices(config, {
    clock,
    log,
    webRoot: options.webRoot ?? `${testDb.dataDir}/no-web-build`,
  });
  const { deps } = services;
  const app = await buildApp(deps, options.log, options.build);
  await app.ready();

  const testApp: TestApp = {
    app,
    deps,
    clock,
    smtp,
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
      await services.close();
      await smtp.close();
      await testDb.drop();
    },
  };
  return testApp;
}
