import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { claimBackupDay, finishBackupDay } from '../../../src/server/backup/store.js';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { runCli } from '../../../src/cli/run.js';
import { listDataTables, readPages, readRows, type Row } from '../../../src/server/db/copy-store.js';
import type { DialectName } from '../../../src/server/db/dialect.js';
import { migrateToLatest } from '../../../src/server/db/migrate.js';
import { DATABASE_TIMEOUTS, type OpenOptions, openDatabase } from '../../../src/server/db/open.js';
import { setsSize } from '../../../src/server/goals/serialize.js';
import { createTestApp, PASSWORD } from '../../support/app.js';
import { steady } from '../../support/cli.js';
import { createTestDatabase, insertTestUser } from '../../support/database.js';
import { someoneWaitsForATable, until } from '../../support/waiting.js';
import { appEnv, cliEnv, startWriters, urlOf, WRITERS_DATE } from './support.js';

async function onDatabase<T>(
  url: string,
  work: (db: Kysely<any>, dialect: DialectName) => Promise<T>,
  options: OpenOptions = {},
): Promise<T> {
  const handle = await openDatabase(parseDatabaseUrl(url), options);
  try {
    return await work(handle.db, handle.dialect);
  } finally {
    await handle.close();
  }
}

/** Every row of every table, in a stable order. */
function dump(url: string): Promise<Record<string, Row[]>> {
  return onDatabase(url, async (db) => {
    const tables: Record<string, Row[]> = {};
    for (const table of await listDataTables(db)) {
      const rows: Row[] = (tables[table.name] = []);
      for await (const page of readPages(db, table)) rows.push(...page);
    }
    return tables;
  });
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
    // A deleted account leaves the hashes of its session and remember-me token for a while (decision 0198).
    const dora = await source.register('dora@example.com');
    assert.equal((await dora.request('DELETE', '/api/me', { password: PASSWORD })).status, 200);
    // The source's daily backup of today, done: it tells of the source's backups and stays behind (decision 0219).
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(await claimBackupDay(source.deps.db, today, Date.now(), 60_000), true);
    await finishBackupDay(source.deps.db, today, Date.now());
    const sourceUrl = urlOf(source.deps.config.database);
    const original = await dump(sourceUrl);
    for (const table of ['preferences', 'reminders', 'push_subscriptions', 'reminder_sends', 'backup_runs']) {
      assert.equal(original[table]?.length, 1, table);
    }
    assert.equal(original.gone_logins?.length, 2);
    const copiedRows = { ...original, backup_runs: [] };

    const toPg = await steady(['copy', '--to', postgres.url], cliEnv(sourceUrl, sourceDb.dataDir));
    assert.equal(toPg.stderr, '');
    assert.equal(toPg.code, 0);
    assert.match(toPg.stdout, /^users\s+2$/m);
    assert.match(toPg.stdout, /^goals\s+3$/m);
    assert.match(toPg.stdout, /^goal_layout\s+2$/m);
    assert.match(toPg.stdout, /^backup_runs\s+0$/m);
    assert.match(toPg.stdout, /Copied \d+ rows in \d+ tables from SQLite .* to PostgreSQL .*; the counts match\./);
    assert.deepEqual(await dump(postgres.url), copiedRows);

    // Into a database that has data: refused, exit code not 0, nothing changed.
    const again = await steady(['copy', '--to', postgres.url], cliEnv(sourceUrl, sourceDb.dataDir));
    assert.equal(again.code, 1);
    assert.match(again.stderr, /the target is not empty \(\w+ has \d+ rows\)/);
    assert.deepEqual(await dump(postgres.url), copiedRows);

    const backUrl = `sqlite:${back.dataDir}/steady.db`;
    const toSqlite = await steady(['copy', '--to', backUrl], cliEnv(postgres.url, postgres.dataDir));
    assert.equal(toSqlite.code, 0, toSqlite.stderr);
    assert.deepEqual(await dump(backUrl), copiedRows);

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
  const env = cliEnv(`sqlite:${database.dataDir}/steady.db`, database.dataDir);
  assert.equal((await steady(['copy'], env)).code, 2);
  const bad = await steady(['copy', '--to', 'mysql://x'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^steady copy: --to must start with sqlite: or postgres:\/\//);
  assert.equal((await steady(['migrate'], env)).code, 0);
  const itself = await steady(['copy', '--to', `sqlite:${database.dataDir}/steady.db`], env);
  assert.equal(itself.code, 1);
  assert.equal(itself.stderr, 'steady copy: the target is the configured database itself\n');
});

/** A trigger that makes the database drop every row inserted into goal_entries, and how to remove it again. */
const DROP_ENTRIES: Record<DialectName, { on: string[]; off: string[] }> = {
  sqlite: {
    on: ['create trigger drop_entries before insert on goal_entries begin select raise(ignore); end'],
    off: ['drop trigger drop_entries'],
  },
  postgres: {
    on: [
      'create function drop_row() returns trigger language plpgsql as $$ begin return null; end $$',
      'create trigger drop_entries before insert on goal_entries for each row execute function drop_row()',
    ],
    off: ['drop trigger drop_entries on goal_entries', 'drop function drop_row()'],
  },
};

test(
  'steady copy while the server logs: the target is one snapshot of the source (each goal agrees with its entries), and the copy succeeds',
  { timeout: 120_000 },
  async (t) => {
    // The source on TEST_DB's engine, whose snapshot is what is tested; the target on PostgreSQL, where a lock held
    // by a second connection can hold the copy between two tables.
    const source = await createTestApp();
    const target = await createTestDatabase('postgres');
    t.after(async () => {
      await source.close();
      await target.drop();
    });
    const { writers, began, stop } = await startWriters(source, 4);

    // Until the copy waits to insert into the target's goals (it has read the source's goals then), and the writers
    // have logged five more each, the target's goals stay locked: those logs land in the source after the copy read
    // the goals and before it reads their entries, as a serving server's writes land in a long copy.
    const { copying } = await onDatabase(target.url, async (db) => {
      await migrateToLatest(db, 'postgres');
      return db.transaction().execute(async (trx) => {
        await sql`lock table goals in share mode`.execute(trx);
        began();
        const copying = steady(['copy', '--to', target.url], appEnv(source));
        await until('the copy waits for the lock', () => someoneWaitsForATable(db));
        const logged = writers.map((writer) => writer.acked.length);
        await until('five more logs each', () => writers.every((writer, i) => writer.acked.length >= logged[i]! + 5));
        return { copying };
      });
    });
    const copy = await copying;
    await stop();

    // Tables read one after the other from the live source, and compared with it again afterwards, gave
    // "counts differ for goal_entries: copied 346, source now 349" and exit 1, with the target already committed.
    assert.equal(copy.stderr, '');
    assert.equal(copy.code, 0);
    const copied = await dump(target.url);
    assert.match(copy.stdout, new RegExp(`^goal_entries\\s+${copied.goal_entries!.length}$`, 'm'));
    for (const [i, writer] of writers.entries()) {
      const goal = copied.goals!.find((row) => String(row.id) === writer.goalId)!;
      const amounts = copied
        .goal_entries!.filter((row) => String(row.goal_id) === writer.goalId && row.removed_at === null)
        .map((row) => Number(row.amount));
      // The writer's amounts in order up to some point, at least those acknowledged before the copy began...
      assert.deepEqual(amounts, writer.acked.slice(0, amounts.length));
      assert.ok(amounts.length >= writer.ackedBefore.length, `writer ${i}: ${amounts.length} copied`);
      // ...and the goal row as it was at the same moment: its size counters count exactly these amounts.
      assert.deepEqual(
        { dates: goal.sets_dates, amountChars: goal.sets_amount_chars },
        setsSize({ [WRITERS_DATE]: amounts }),
        `writer ${i}: the goal row and its ${amounts.length} entries are from different moments`,
      );
    }
  },
);

test(
  'steady copy whose count check fails leaves the target empty, and a second try after the cause is gone copies',
  { timeout: 120_000 },
  async (t) => {
    const source = await createTestApp();
    const target = await createTestDatabase();
    t.after(async () => {
      await source.close();
      await target.drop();
    });
    const anna = await source.register('anna@example.com');
    const goalId = (await anna.post('/api/goals', { name: 'Push-ups' })).body.id;
    for (const amount of [10, 20, 30]) await anna.post(`/api/goals/${goalId}/sets/${WRITERS_DATE}`, { amount });

    // A target that silently drops every goal entry inserted into it (a trigger left behind by someone): the copy
    // finds fewer rows than it read only by counting, and that must happen before its transaction commits.
    await onDatabase(target.url, async (db, dialect) => {
      await migrateToLatest(db, dialect);
      for (const statement of DROP_ENTRIES[dialect].on) await sql.raw(statement).execute(db);
    });
    const failed = await steady(['copy', '--to', target.url], appEnv(source));
    assert.equal(failed.code, 1);
    assert.deepEqual(
      Object.entries(await dump(target.url)).filter(([, rows]) => rows.length > 0),
      [],
      'no table of the target has rows',
    );
    assert.equal(failed.stdout, '');
    assert.equal(
      failed.stderr,
      'steady copy: counts differ for goal_entries: read 3 rows from the source, the target has 0; nothing was copied\n',
    );

    // Not "the target is not empty": once the trigger is gone, the same command copies.
    await onDatabase(target.url, async (db, dialect) => {
      for (const statement of DROP_ENTRIES[dialect].off) await sql.raw(statement).execute(db);
    });
    const copied = await steady(['copy', '--to', target.url], appEnv(source));
    assert.equal(copied.code, 0, copied.stderr);
    assert.deepEqual(await dump(target.url), await dump(urlOf(source.deps.config.database)));
  },
);

/** How long `work` took, in milliseconds. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

test(
  'steady copy from a PostgreSQL whose goal_entries takes longer than the statement deadline to read whole: read in pages, every row copied',
  { timeout: 180_000 },
  async (t) => {
    const source = await createTestDatabase('postgres');
    const target = await createTestDatabase('sqlite');
    t.after(async () => {
      await source.drop();
      await target.drop();
    });
    const entries = 300_000;
    await onDatabase(
      source.url,
      async (db) => {
        await migrateToLatest(db, 'postgres');
        const userId = await insertTestUser(db, 'anna@example.com');
        const goal = { user_id: userId, name: 'Push-ups', unit: '', daily: 1, days: 30, start: '2026-01-01 00:00:00' };
        const { id } = await db
          .insertInto('goals')
          .values({ ...goal, created_at: 1, updated_at: 1 })
          .returning('id')
          .executeTakeFirstOrThrow();
        await sql`insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at)
          select ${userId}, ${id}, '2026-01-15', i, 'e' || i, i from generate_series(1, ${entries}) as i`.execute(db);
      },
      { patient: true },
    );

    // The deadline a third of what one statement takes to read the table whole (millions of rows against the real
    // 5 s, scaled down to this machine), and still many times what a page takes.
    const { whole, pages } = await onDatabase(source.url, async (db) => {
      const table = (await listDataTables(db)).find((candidate) => candidate.name === 'goal_entries')!;
      const pages: number[] = [];
      let started = performance.now();
      for await (const _ of readPages(db, table)) {
        pages.push(performance.now() - started);
        started = performance.now();
      }
      return { whole: await timed(() => readRows(db, table)), pages };
    });
    const deadlineMs = Math.round(whole / 3);
    const typicalPage = pages.sort((a, b) => a - b)[Math.floor(pages.length / 2)]!;
    const measured = `whole ${Math.round(whole)} ms, pages ${Math.round(typicalPage)} ms (median of ${pages.length}), slowest ${Math.round(pages.at(-1)!)} ms; deadline ${deadlineMs} ms`;
    assert.ok(deadlineMs >= 5 * typicalPage, `too close to tell apart: ${measured}`);
    t.diagnostic(measured);

    const out: string[] = [];
    const err: string[] = [];
    const statementMs = DATABASE_TIMEOUTS.statementMs;
    DATABASE_TIMEOUTS.statementMs = deadlineMs;
    let code: number;
    try {
      code = await runCli(['copy', '--to', target.url], cliEnv(source.url, source.dataDir), {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      });
    } finally {
      DATABASE_TIMEOUTS.statementMs = statementMs;
    }
    // Before: "steady copy: canceling statement due to statement timeout", exit 1.
    assert.deepEqual(err, [], measured);
    assert.equal(code, 0);
    assert.match(out.join('\n'), new RegExp(`^goal_entries\\s+${entries}$`, 'm'));
    assert.deepEqual(await dump(target.url), await dump(source.url));
  },
);
