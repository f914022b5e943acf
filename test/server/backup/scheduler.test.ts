import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { type TestContext, test } from 'node:test';
import { backupDatabase } from '../../../src/server/backup/backup.js';
import {
  backupExtension,
  BackupScheduler,
  BACKUPS_KEPT,
  databaseAmongDailyBackups,
} from '../../../src/server/backup/scheduler.js';
import { DAY, FakeClock, MINUTE } from '../../../src/server/clock.js';
import { openDatabase } from '../../../src/server/db/open.js';
import Database from 'better-sqlite3';
import { listUsers } from '../../../src/server/accounts/store.js';
import { createTestApp } from '../../support/app.js';
import { restoreBackup } from '../../support/restore.js';

const quiet = {
  info: () => undefined,
  error: (details: object) => assert.fail(`unexpected error ${JSON.stringify(details)}`),
};

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** The app's scheduler (by default at 04:00 UTC on 2026-01-15, a time a backup is due), writing into `backupDir`. */
function dueScheduler(
  app: TestApp,
  backupDir: string,
  log: ConstructorParameters<typeof BackupScheduler>[0]['log'],
  clock = new FakeClock(Date.UTC(2026, 0, 15, 4, 0, 0)),
) {
  return new BackupScheduler({
    db: app.deps.db,
    clock,
    database: app.deps.config.database,
    backupDir,
    timeZone: 'UTC',
    log,
  });
}

/** A test app with one user, Anna, and an empty backup folder in its data folder; closed when the test ends. */
async function appWithBackupDir(t: TestContext) {
  const app = await createTestApp();
  t.after(() => app.close());
  const anna = await app.register('anna@example.com');
  const backupDir = path.join(app.deps.config.dataDir, 'backups');
  fs.mkdirSync(backupDir);
  return { app, anna, backupDir };
}

test(
  'BACKUP_DIR: one backup a day from 03:00 server time, by exactly one of two processes, newest 14 kept',
  { timeout: 120_000 },
  async (t) => {
    const app = await createTestApp();
    await app.register('anna@example.com');
    // A second process: its own connection to the same database, its own scheduler.
    const second = await openDatabase(app.deps.config.database);
    t.after(async () => {
      await second.close();
      await app.close();
    });
    const backupDir = path.join(app.deps.config.dataDir, 'backups');
    fs.mkdirSync(backupDir);
    const clock = new FakeClock(Date.UTC(2026, 0, 15, 2, 59, 0));
    const options = { clock, database: app.deps.config.database, backupDir, timeZone: 'Europe/Berlin', log: quiet };
    const schedulers = [
      new BackupScheduler({ ...options, db: app.deps.db }),
      new BackupScheduler({ ...options, db: second.db }),
    ];
    const extension = backupExtension(app.deps.config.database);
    const checkBoth = () => Promise.all(schedulers.map((scheduler) => scheduler.check()));

    // 02:59 UTC is 03:59 in Berlin: due. At 01:59 UTC (02:59 Berlin) the day before it was not.
    clock.advance(-DAY - 60 * MINUTE);
    assert.deepEqual(await checkBoth(), [null, null]);
    assert.deepEqual(fs.readdirSync(backupDir), []);

    clock.advance(DAY + 60 * MINUTE);
    const made = await checkBoth();
    assert.equal(made.filter((file) => file !== null).length, 1, `exactly one process backs up: ${made}`);
    assert.deepEqual(fs.readdirSync(backupDir), [`steady-2026-01-15.${extension}`]);
    assert.equal(fs.statSync(path.join(backupDir, `steady-2026-01-15.${extension}`)).mode & 0o777, 0o600);
    // Later checks the same day do nothing.
    clock.advance(10 * MINUTE);
    assert.deepEqual(await checkBoth(), [null, null]);

    for (let day = 1; day <= 15; day++) {
      clock.advance(DAY);
      assert.equal((await checkBoth()).filter((file) => file !== null).length, 1);
    }
    const kept = fs.readdirSync(backupDir).sort();
    assert.equal(kept.length, BACKUPS_KEPT);
    assert.equal(kept[0], `steady-2026-01-17.${extension}`);
    assert.equal(kept.at(-1), `steady-2026-01-30.${extension}`);
  },
);

test(
  'a failing scheduled backup gives the day back and is tried again 1, 2, 4, ... minutes later, at most an hour apart; a success starts again at one minute (decision 0214)',
  { timeout: 60_000 },
  async (t) => {
    const app = await createTestApp();
    t.after(() => app.close());
    const backupDir = path.join(app.deps.config.dataDir, 'later');
    const clock = new FakeClock(Date.UTC(2026, 0, 15, 4, 0, 0));
    const started = clock.now();
    // The minutes after 04:00 on the 15th at which a backup was tried and failed.
    const failedAt: number[] = [];
    const scheduler = dueScheduler(
      app,
      backupDir,
      { info: () => undefined, error: () => failedAt.push((clock.now() - started) / MINUTE) },
      clock,
    );
    /** Checks once a minute, as the running server does, from the clock's time to minute `last`; returns what was written. */
    const checkEachMinuteUntil = async (last: number) => {
      const written: string[] = [];
      for (; (clock.now() - started) / MINUTE <= last; clock.advance(MINUTE)) {
        const file = await scheduler.check();
        if (file !== null) written.push(file);
      }
      return written;
    };

    // The folder does not exist: every try fails, is logged and gives the day back.
    assert.deepEqual(await checkEachMinuteUntil(200), []);
    assert.deepEqual(failedAt, [0, 1, 3, 7, 15, 31, 63, 123, 183]);

    // Fixed: the next try (an hour after the last) writes the day, and a later failure waits a minute again.
    fs.mkdirSync(backupDir);
    const extension = backupExtension(app.deps.config.database);
    assert.deepEqual(await checkEachMinuteUntil(242), []);
    assert.deepEqual(await checkEachMinuteUntil(243), [path.join(backupDir, `steady-2026-01-15.${extension}`)]);
    fs.rmSync(backupDir, { recursive: true });
    clock.advance(DAY - 244 * MINUTE);
    assert.deepEqual(await checkEachMinuteUntil(DAY / MINUTE + 10), []);
    assert.deepEqual(failedAt.slice(9), [1440, 1441, 1443, 1447]);
  },
);

test(
  "a database restored from the day's backup, or from a later copy of that day, writes the day's backup at its first check (decision 0214)",
  { timeout: 60_000 },
  async (t) => {
    const { app, backupDir } = await appWithBackupDir(t);
    const clock = new FakeClock(Date.UTC(2026, 0, 15, 4, 0, 0));
    const daily = await dueScheduler(app, backupDir, quiet, clock).check();
    assert.ok(daily !== null);
    // What `steady backup FILE` writes, at noon, after the day's backup was done.
    const copy = path.join(app.deps.config.dataDir, 'noon.backup');
    await backupDatabase(app.deps.config.database, copy, { replace: false });

    // The operator restores a backup as the live database (README) and starts a server on it, the same day: the
    // morning's ten minutes after it was written (its claim was then younger than the hour after which a claim
    // is taken over), or the noon copy (whose day was done) at 14:00.
    for (const [file, restoredAt] of [
      [daily, Date.UTC(2026, 0, 15, 4, 10, 0)],
      [copy, Date.UTC(2026, 0, 15, 14, 0, 0)],
    ] as const) {
      const restored = await restoreBackup(app.deps.config.database.kind, file);
      const server = await createTestApp(restored.env);
      t.after(async () => {
        await server.close();
        await restored.drop();
      });
      const [anna] = await listUsers(server.deps.db);
      assert.equal(anna?.email, 'anna@example.com', 'the server runs on the backup');
      const restoredDir = fs.mkdtempSync(path.join(app.deps.config.dataDir, 'restored-'));
      const scheduler = dueScheduler(server, restoredDir, quiet, new FakeClock(restoredAt));
      assert.equal(
        await scheduler.check(),
        path.join(restoredDir, path.basename(daily)),
        `the day's backup of the database restored from ${path.basename(file)}`,
      );
    }
  },
);

test(
  "the day's file already in BACKUP_DIR (a database restored that day) is kept under another name, then pruned with its day (decision 0223)",
  { timeout: 120_000 },
  async (t) => {
    const { app, backupDir } = await appWithBackupDir(t);
    const extension = backupExtension(app.deps.config.database);
    const dayFile = `steady-2026-01-15.${extension}`;
    const setAside = `steady-2026-01-15.replaced-041000.${extension}`;
    // This morning's backup; the operator then restored an older day's, on which the server now runs.
    fs.writeFileSync(path.join(backupDir, dayFile), "this morning's state");
    const clock = new FakeClock(Date.UTC(2026, 0, 15, 4, 10, 0));
    const scheduler = dueScheduler(app, backupDir, quiet, clock);

    assert.equal(await scheduler.check(), path.join(backupDir, dayFile));
    assert.deepEqual(fs.readdirSync(backupDir).sort(), [dayFile, setAside]);
    assert.equal(fs.readFileSync(path.join(backupDir, setAside), 'utf8'), "this morning's state");
    assert.notEqual(fs.readFileSync(path.join(backupDir, dayFile), 'utf8'), "this morning's state");

    // Kept while its day's backup is among the newest 14, removed with it.
    for (let day = 1; day <= 13; day++) {
      clock.advance(DAY);
      assert.ok((await scheduler.check()) !== null);
    }
    assert.ok(fs.readdirSync(backupDir).includes(setAside), 'kept while 2026-01-15 is kept');
    clock.advance(DAY);
    assert.ok((await scheduler.check()) !== null);
    const kept = fs.readdirSync(backupDir).sort();
    assert.equal(kept.length, BACKUPS_KEPT);
    assert.equal(kept[0], `steady-2026-01-16.${extension}`);
  },
);

test(
  'the daily SQLite backup leaves the event loop free: requests are answered while it is written (decision 0212)',
  { timeout: 60_000 },
  async (t) => {
    const { app, anna, backupDir } = await appWithBackupDir(t);
    if (app.deps.config.database.kind !== 'sqlite') return t.skip('pg_dump has always run as a process of its own');
    const created = await anna.post('/api/goals', { name: 'Push-ups', daily: 50 });
    assert.equal(created.status, 200);
    assert.equal((await anna.post(`/api/goals/${created.body.id}/sets/2026-01-15`, { amount: 0.001 })).status, 200);
    const scheduler = dueScheduler(app, backupDir, quiet);
    let settled = false;
    const backup = scheduler.check().finally(() => (settled = true));
    // The copy is written under a temporary name first. Run on the server's own thread, `VACUUM INTO` finished
    // before JavaScript could look: the half-written file was never seen, and no request was answered meanwhile.
    const partial = () => fs.readdirSync(backupDir).some((name) => name.includes('.partial-'));
    while (!settled && !partial()) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'the backup was over before the event loop turned once');
    const list = await anna.get('/api/goals');
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);

    const file = await backup;
    assert.equal(file, path.join(backupDir, 'steady-2026-01-15.db'));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const copy = new Database(file, { readonly: true });
    try {
      const row = copy.prepare('SELECT amount FROM goal_entries').all();
      assert.deepEqual(row, [{ amount: 0.001 }]);
    } finally {
      copy.close();
    }
  },
);

test('only a SQLite file named as a daily backup, in BACKUP_DIR itself, counts as one of its backups (decision 0216)', () => {
  const backupDir = path.resolve('/srv/steady-backups');
  const sqlite = (file: string) => ({ kind: 'sqlite' as const, file });
  assert.equal(
    databaseAmongDailyBackups(sqlite(path.join(backupDir, 'steady-2026-11-20.db')), backupDir),
    path.join(backupDir, 'steady-2026-11-20.db'),
  );
  // A day's earlier file set aside (decision 0223) is pruned with its day: a server started on it would lose it too.
  assert.equal(
    databaseAmongDailyBackups(sqlite(path.join(backupDir, 'steady-2026-11-20.replaced-041000.db')), backupDir),
    path.join(backupDir, 'steady-2026-11-20.replaced-041000.db'),
  );
  // A data folder given as BACKUP_DIR as well keeps its steady.db: the scheduler touches only its day files.
  assert.equal(databaseAmongDailyBackups(sqlite(path.join(backupDir, 'steady.db')), backupDir), null);
  assert.equal(databaseAmongDailyBackups(sqlite('/srv/restored/steady-2026-11-20.db'), backupDir), null);
  assert.equal(
    databaseAmongDailyBackups({ kind: 'postgres', url: 'postgres://127.0.0.1/steady', poolSize: 10 }, backupDir),
    null,
  );
});
