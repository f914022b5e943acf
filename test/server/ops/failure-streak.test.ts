import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { type TestContext, test } from 'node:test';
import type { Kysely, KyselyPlugin } from 'kysely';
import { BackupScheduler } from '../../../src/server/backup/scheduler.js';
import { FakeClock, HOUR, SECOND } from '../../../src/server/clock.js';
import type { Database } from '../../../src/server/db/schema.js';
import { createReminderScheduler } from '../../../src/server/reminders/start.js';
import { createTestApp } from '../../support/app.js';
import { memoryLogger } from '../../support/memory-log.js';

/**
 * The app's database, refusing every statement while `down` is set: the database away, as the checks see it. (A
 * precompiled query refuses a database with plugins; the checks' statements are built per call.)
 */
function databaseThatGoesAway(db: Kysely<Database>) {
  const state = { down: false };
  const gate: KyselyPlugin = {
    transformQuery(args) {
      if (state.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(gate), state };
}

async function appWithDatabaseThatGoesAway(t: TestContext) {
  const app = await createTestApp();
  t.after(() => app.close());
  return { app, ...databaseThatGoesAway(app.deps.db) };
}

/** pino's levels by number, as the server's log writes them. */
const LEVELS: Record<number, string> = { 30: 'info', 40: 'warn', 50: 'error' };

/** Each line of the log as its level, message and, on a streak's lines, its number of failures. */
const summary = (lines: Array<{ level: number; msg: string; failures?: number }>) =>
  lines.map(({ level, msg, failures }) => `${LEVELS[level]} ${msg}${failures ? ` (${failures})` : ''}`);

test('a database away for an hour and a half: the reminder check logs one error, one an hour later, and one line when it works again', async (t) => {
  const { app, db, state } = await appWithDatabaseThatGoesAway(t);
  const { log, lines } = memoryLogger();
  const clock = new FakeClock();
  const scheduler = createReminderScheduler({ ...app.deps, db, clock }, log);

  assert.equal(await scheduler.check(), 0);
  state.down = true;
  // A check every 15 s, as the server runs them: 360 in 90 minutes.
  for (let check = 0; check < 360; check++) {
    assert.equal(await scheduler.check(), 0);
    clock.advance(15 * SECOND);
  }
  state.down = false;
  assert.equal(await scheduler.check(), 0);
  assert.equal(await scheduler.check(), 0);

  assert.deepEqual(summary(lines()), [
    'error reminders: the check failed; the next one tries again',
    'error reminders: the check failed; the next one tries again (241)',
    'info reminders: the check works again (360)',
  ]);
  const [first, hourly, again] = lines();
  assert.match(first.err.message, /ECONNREFUSED/, 'the first line has the cause');
  assert.equal(hourly.since, new Date(clock.now() - 360 * 15 * SECOND).toISOString());
  assert.equal(again.minutes, 90);
});

test('the backup check logs a database that cannot be asked once, not every minute, and says when it answers again', async (t) => {
  const { app, db, state } = await appWithDatabaseThatGoesAway(t);
  const { log, lines } = memoryLogger();
  const backupDir = path.join(app.deps.config.dataDir, 'backups');
  fs.mkdirSync(backupDir, { mode: 0o700 });
  // 04:00 UTC: the day's backup is due.
  const clock = new FakeClock(Date.UTC(2026, 0, 15, 4, 0, 0));
  const scheduler = new BackupScheduler({
    db,
    clock,
    database: app.deps.config.database,
    backupDir,
    timeZone: 'UTC',
    log,
  });

  state.down = true;
  for (let minute = 0; minute < 30; minute++) {
    assert.equal(await scheduler.check(), null);
    clock.advance(60 * SECOND);
  }
  state.down = false;
  const written = await scheduler.check();

  assert.ok(written, 'the backup is written once the database answers');
  assert.deepEqual(summary(lines()), [
    'error scheduled backup: the database could not be asked',
    'info scheduled backup: the database answers again (30)',
    'info scheduled backup written',
  ]);
  assert.ok(clock.now() - Date.UTC(2026, 0, 15, 4, 0, 0) < HOUR);
});
