import assert from 'node:assert/strict';
import type { DatabaseConfig } from '../../../src/server/config.js';
import { BASE_URL, TEST_SECRET_KEY, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

export const urlOf = (database: DatabaseConfig) =>
  database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url;

/** The environment `steady` runs with in these tests: the test app's key, so its invites open in a test app too. */
export function cliEnv(databaseUrl: string, dataDir: string): Record<string, string> {
  return { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, BASE_URL, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'silent' };
}

/** `steady` on a test app's database. */
export const appEnv = (app: TestApp) => cliEnv(urlOf(app.deps.config.database), app.deps.config.dataDir);

export const WRITERS_DATE = '2026-01-15';

export interface Writer {
  client: TestClient;
  goalId: string;
  /** The amounts logged and answered, in order: 1, 2, 3, … */
  acked: number[];
  /** Those answered before `began()` was called. */
  ackedBefore: number[];
}

/**
 * `count` users (`writer0@example.com`, …), each logging 1, 2, 3, … on WRITERS_DATE to a goal of their own
 * (`Writer 0 📝`, …) as fast as the app answers, as a serving server does while an operator runs a command. Returns
 * once every writer has logged 20; `began()` marks the moment the command starts, `stop()` ends the writing.
 */
export async function startWriters(
  app: TestApp,
  count: number,
): Promise<{ writers: Writer[]; began(): void; stop(): Promise<void> }> {
  const writers: Writer[] = [];
  for (let i = 0; i < count; i++) {
    const client = await app.register(`writer${i}@example.com`);
    const goalId = (await client.post('/api/goals', { name: `Writer ${i} 📝` })).body.id;
    writers.push({ client, goalId, acked: [], ackedBefore: [] });
  }
  let began = false;
  let stop = false;
  const writing = writers.map(async (writer) => {
    for (let amount = 1; !stop; amount++) {
      const answer = await writer.client.post(`/api/goals/${writer.goalId}/sets/${WRITERS_DATE}`, { amount });
      assert.equal(answer.status, 200, answer.text);
      writer.acked.push(amount);
      if (!began) writer.ackedBefore.push(amount);
    }
  });
  // Handled here at once, so a failed write fails the test through stop() and not as an unhandled rejection.
  const done = Promise.all(writing);
  done.catch(() => undefined);
  while (writers.some((writer) => writer.acked.length < 20)) await new Promise((resolve) => setTimeout(resolve, 5));
  return {
    writers,
    began: () => {
      began = true;
    },
    stop: async () => {
      stop = true;
      await done;
    },
  };
}
