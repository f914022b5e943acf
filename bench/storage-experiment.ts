// An experiment for issue 12 (decision 0208), never a code path of Steady: what logging one amount and a PATCH of
// a goal's 90 dates cost at the floor on SQLite with the amounts stored two ways, each with and without requests
// sharing a commit.
//   rows    one row per amount, as Steady stores them (`goal_entries`, decision 0090), the floor's statements
//           (bench/floor-store.ts): the goal row locked, the date's amounts read, the amount inserted, the goal's
//           size written, the list version bumped;
//   months  one row per goal and month holding that month's amounts as JSON text: the goal row written (lock and
//           size in one statement), the month read, changed and written back, the list version bumped;
//   days    one row per goal and date holding that date's amounts and entry ids as JSON text, written as months
//           are (the lever "one row per goal and date" of docs/performance.md).
// "Shared" runs every request of one turn of the event loop in one transaction, each in a savepoint of its own,
// and answers them after the one COMMIT (group commit). Every variant is measured against a bare hello route of
// the same process in alternating rounds (50 connections), as `npm run bench` measures the app. Each PATCH of a goal
// carries other amounts than the one before it (three bodies in turn, as the bench's), so every PATCH writes its
// 270 amounts; until 2026-11-28 each goal got one body, and every PATCH after its first changed nothing.
//
// Run: `node --import tsx bench/storage-experiment.ts [--rounds N] [--seconds N]`; it prints a table and writes
// bench/results/<date>-storage-experiment.json. The server is this file, started again with `serve`.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Options as LoadOptions, type Request as LoadRequest } from 'autocannon';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import {
  BUMP_VERSION,
  DATE_AMOUNTS,
  DELETE_ENTRY,
  GROW_GOAL,
  INSERT_AMOUNT,
  LOCK_GOAL,
  SET_AMOUNT,
} from './floor-store.js';
import { benchSets, cpuMicros } from './shared.js';
import { sha256Hex } from '../src/server/auth/tokens.js';

const USERS = 20;
const GOALS = 10;
const DATES = 90;
const AMOUNTS_PER_DATE = 3;
const CONNECTIONS = 50;

type Sets = Record<string, number[]>;
/** A date's amounts as [amount, entry_id] in logging order: a `goal_days` row's body. */
type DayBody = Array<[number, string | null]>;
/** A month's amounts: date -> its DayBody. */
type MonthBody = Record<string, DayBody>;

interface ServeInfo {
  url: string;
  tokens: string[];
  goalIds: number[][];
}

if (process.argv[2] === 'serve') await serve(process.argv[3]!);
else await drive();

function serve(file: string) {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // The columns and indexes of Steady's tables that these writes touch (migrations 0001-0013).
  db.exec(`
    create table users (id integer primary key, goals_version integer not null default 0);
    create table sessions (token_hash text primary key, user_id integer not null references users(id),
      expires_at integer not null);
    create index sessions_user on sessions(user_id);
    create table goals (id integer primary key, user_id integer not null references users(id),
      sets_dates integer not null, sets_amount_chars integer not null, updated_at integer not null);
    create index goals_user on goals(user_id);
    create table goal_entries (id integer primary key, user_id integer not null references users(id),
      goal_id integer not null references goals(id), date text not null, amount real, entry_id text,
      created_at integer not null, removed_at integer);
    create index goal_entries_goal_date on goal_entries(goal_id, date);
    create index goal_entries_user on goal_entries(user_id);
    create unique index goal_entries_entry_id on goal_entries(user_id, entry_id) where entry_id is not null;
    create table goal_months (goal_id integer not null references goals(id), month text not null, body text not null,
      primary key (goal_id, month)) without rowid;
    create table goal_days (goal_id integer not null references goals(id), date text not null, body text not null,
      primary key (goal_id, date)) without rowid;`);

  // Every seeded amount carries an entry_id, as the app's own logs do: a month's text is then about 4 kB.
  const tokens: string[] = [];
  const goalIds: number[][] = [];
  db.transaction(() => {
    const addGoal = db.prepare<[number, number, number, number]>(
      'insert into goals (user_id, sets_dates, sets_amount_chars, updated_at) values (?, ?, ?, ?)',
    );
    const addEntry = db.prepare(
      'insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at) values (?, ?, ?, ?, ?, ?)',
    );
    const addMonth = db.prepare('insert into goal_months (goal_id, month, body) values (?, ?, ?)');
    const addDay = db.prepare('insert into goal_days (goal_id, date, body) values (?, ?, ?)');
    for (let user = 1; user <= USERS; user++) {
      db.prepare('insert into users (id) values (?)').run(user);
      const token = randomUUID();
      tokens.push(token);
      db.prepare('insert into sessions values (?, ?, ?)').run(sha256Hex(token), user, Date.now() + 86_400_000);
      const ids: number[] = [];
      for (let g = 0; g < GOALS; g++) {
        const sets = benchSets(DATES, AMOUNTS_PER_DATE, g);
        const goalId = Number(addGoal.run(user, DATES, DATES * AMOUNTS_PER_DATE * 2, Date.now()).lastInsertRowid);
        ids.push(goalId);
        const months = new Map<string, MonthBody>();
        for (const [date, amounts] of Object.entries(sets)) {
          const month = months.get(date.slice(0, 7)) ?? months.set(date.slice(0, 7), {}).get(date.slice(0, 7))!;
          month[date] = amounts.map((amount) => {
            const entryId = randomUUID();
            addEntry.run(user, goalId, date, amount, entryId, Date.now());
            return [amount, entryId];
          });
          addDay.run(goalId, date, JSON.stringify(month[date]));
        }
        for (const [month, body] of months) addMonth.run(goalId, month, JSON.stringify(body));
      }
      goalIds.push(ids);
    }
  })();

  const sessionUser = db
    .prepare<[string, number], number>(
      'select users.id from sessions join users on users.id = sessions.user_id where token_hash = ? and expires_at > ?',
    )
    .pluck();
  const bumpVersion = db.prepare<[number]>(BUMP_VERSION);

  // rows: bench/floor-store.ts's statements.
  const lockGoal = db.prepare<[number, number], { sets_dates: number; sets_amount_chars: number }>(LOCK_GOAL);
  const dateAmounts = db.prepare<[number, string], number | null>(DATE_AMOUNTS).pluck();
  const insertAmount = db.prepare<[number, number, string, number | null, number]>(INSERT_AMOUNT);
  const growGoal = db.prepare<[number, number, number, number]>(GROW_GOAL);
  const liveRows = db
    .prepare<[number], [number, string, number | null]>(
      'select id, date, amount from goal_entries where goal_id = ? and removed_at is null order by date, id',
    )
    .raw(true);
  const setAmount = db.prepare<[number, number]>(SET_AMOUNT);
  const deleteRow = db.prepare<[number]>(DELETE_ENTRY);

  function rowsLog(userId: number, goalId: number, date: string, amount: number): number[] | undefined {
    const size = lockGoal.get(goalId, userId);
    if (!size) return undefined;
    const amounts = dateAmounts.all(goalId, date).filter((a): a is number => a !== null);
    const now = Date.now();
    insertAmount.run(userId, goalId, date, amount, now);
    const dates = size.sets_dates + (amounts.length === 0 ? 1 : 0);
    growGoal.run(dates, size.sets_amount_chars + String(amount).length, now, goalId);
    bumpVersion.run(userId);
    return [...amounts, amount];
  }
  /** PATCH by the app's rule for these bodies: a date keeping its number of amounts changes them in place. */
  function rowsPatch(userId: number, goalId: number, sets: Sets): boolean {
    if (!lockGoal.get(goalId, userId)) return false;
    const byDate = new Map<string, Array<[number, string, number | null]>>();
    for (const row of liveRows.all(goalId)) (byDate.get(row[1]) ?? byDate.set(row[1], []).get(row[1])!).push(row);
    const now = Date.now();
    for (const date of new Set([...byDate.keys(), ...Object.keys(sets)])) {
      const old = byDate.get(date) ?? [];
      const amounts = sets[date] ?? [];
      if (old.length === amounts.length) {
        old.forEach(([id, , amount], i) => amount !== amounts[i] && setAmount.run(amounts[i]!, id));
        continue;
      }
      for (const [id] of old) deleteRow.run(id);
      for (const amount of amounts) insertAmount.run(userId, goalId, date, amount, now);
    }
    bumpVersion.run(userId);
    return true;
  }

  const touchGoal = db.prepare<[number, number, number, number], { id: number }>(
    'update goals set sets_amount_chars = sets_amount_chars + ?, updated_at = ? where id = ? and user_id = ? returning id',
  );
  const addDate = db.prepare<[number]>('update goals set sets_dates = sets_dates + 1 where id = ?');
  const readMonth = db
    .prepare<[number, string], string>('select body from goal_months where goal_id = ? and month = ?')
    .pluck();
  const writeMonth = db.prepare<[number, string, string]>(
    `insert into goal_months (goal_id, month, body) values (?, ?, ?)
      on conflict (goal_id, month) do update set body = excluded.body`,
  );

  /** Appends a logged amount to a date's body (its first counts a date more for the goal); the date's amounts. */
  function appendToDay(goalId: number, day: DayBody, amount: number): number[] {
    if (day.length === 0) addDate.run(goalId);
    day.push([amount, null]);
    return day.map(([logged]) => logged);
  }

  function monthsLog(userId: number, goalId: number, date: string, amount: number): number[] | undefined {
    if (!touchGoal.get(String(amount).length, Date.now(), goalId, userId)) return undefined;
    const month = date.slice(0, 7);
    const body = JSON.parse(readMonth.get(goalId, month) ?? '{}') as MonthBody;
    const amounts = appendToDay(goalId, (body[date] ??= []), amount);
    writeMonth.run(goalId, month, JSON.stringify(body));
    bumpVersion.run(userId);
    return amounts;
  }
  /** Each month of the body rewritten when its text changed; amounts keep their entry_id in place. */
  function monthsPatch(userId: number, goalId: number, sets: Sets): boolean {
    if (!touchGoal.get(0, Date.now(), goalId, userId)) return false;
    const months = new Map<string, Sets>();
    for (const [date, amounts] of Object.entries(sets)) {
      const month = months.get(date.slice(0, 7)) ?? months.set(date.slice(0, 7), {}).get(date.slice(0, 7))!;
      month[date] = amounts;
    }
    for (const [month, monthSets] of months) {
      const old = JSON.parse(readMonth.get(goalId, month) ?? '{}') as MonthBody;
      const body: MonthBody = {};
      for (const [date, amounts] of Object.entries(monthSets))
        body[date] = amounts.map((amount, i) => [amount, old[date]?.[i]?.[1] ?? null]);
      const text = JSON.stringify(body);
      if (text !== JSON.stringify(old)) writeMonth.run(goalId, month, text);
    }
    bumpVersion.run(userId);
    return true;
  }

  const readDay = db
    .prepare<[number, string], string>('select body from goal_days where goal_id = ? and date = ?')
    .pluck();
  const readDays = db
    .prepare<[number], [string, string]>('select date, body from goal_days where goal_id = ?')
    .raw(true);
  const writeDay = db.prepare<[number, string, string]>(
    `insert into goal_days (goal_id, date, body) values (?, ?, ?)
      on conflict (goal_id, date) do update set body = excluded.body`,
  );
  const deleteDay = db.prepare<[number, string]>('delete from goal_days where goal_id = ? and date = ?');

  function daysLog(userId: number, goalId: number, date: string, amount: number): number[] | undefined {
    if (!touchGoal.get(String(amount).length, Date.now(), goalId, userId)) return undefined;
    const day = JSON.parse(readDay.get(goalId, date) ?? '[]') as DayBody;
    const amounts = appendToDay(goalId, day, amount);
    writeDay.run(goalId, date, JSON.stringify(day));
    bumpVersion.run(userId);
    return amounts;
  }
  /** Each date rewritten when its text changed, dates left out deleted; amounts keep their entry_id in place. */
  function daysPatch(userId: number, goalId: number, sets: Sets): boolean {
    if (!touchGoal.get(0, Date.now(), goalId, userId)) return false;
    const old = new Map(readDays.all(goalId));
    for (const [date, amounts] of Object.entries(sets)) {
      const oldText = old.get(date);
      const oldDay = oldText === undefined ? [] : (JSON.parse(oldText) as DayBody);
      const text = JSON.stringify(amounts.map((amount, i) => [amount, oldDay[i]?.[1] ?? null]));
      if (text !== oldText) writeDay.run(goalId, date, text);
      old.delete(date);
    }
    for (const date of old.keys()) deleteDay.run(goalId, date);
    bumpVersion.run(userId);
    return true;
  }

  /** A transaction of its own for each request. */
  const alone =
    <A extends unknown[], R>(write: (...args: A) => R) =>
    async (...args: A): Promise<R> =>
      db.transaction(write).immediate(...args);

  // Shared: the writes of one turn wait in `waiting`; one setImmediate runs them, each a savepoint (better-sqlite3
  // nests a transaction function that way), and answers them all after the COMMIT.
  let waiting: Array<{ write: () => unknown; settle: (result: { value?: unknown; error?: unknown }) => void }> = [];
  let turns = 0;
  let turnWrites = 0;
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  function runTurn() {
    const writes = waiting;
    waiting = [];
    turns += 1;
    turnWrites += writes.length;
    begin.run();
    const results = writes.map(({ write }) => {
      try {
        return { value: write() };
      } catch (error) {
        return { error };
      }
    });
    commit.run();
    results.forEach((result, i) => writes[i]!.settle(result));
  }
  const shared =
    <A extends unknown[], R>(write: (...args: A) => R) =>
    (...args: A): Promise<R> => {
      const inSavepoint = db.transaction(write);
      return new Promise((resolve, reject) => {
        if (waiting.length === 0) setImmediate(runTurn);
        waiting.push({
          write: () => inSavepoint(...args),
          settle: ({ value, error }) => (error === undefined ? resolve(value as R) : reject(error as Error)),
        });
      });
    };

  const asyncVariants = {
    rows: { log: alone(rowsLog), patch: alone(rowsPatch) },
    'rows-shared': { log: shared(rowsLog), patch: shared(rowsPatch) },
    months: { log: alone(monthsLog), patch: alone(monthsPatch) },
    'months-shared': { log: shared(monthsLog), patch: shared(monthsPatch) },
    days: { log: alone(daysLog), patch: alone(daysPatch) },
    'days-shared': { log: shared(daysLog), patch: shared(daysPatch) },
  };

  const app = Fastify({ logger: false });
  const userOf = (cookie: string | undefined) =>
    sessionUser.get(sha256Hex((cookie ?? '').slice((cookie ?? '').indexOf('=') + 1)), Date.now());
  app.get('/hello', async () => ({ hello: 'world' }));
  app.post<{ Params: { variant: keyof typeof asyncVariants; id: string; date: string }; Body: { amount: number } }>(
    '/:variant/goals/:id/sets/:date',
    async (request, reply) => {
      const user = userOf(request.headers.cookie);
      if (user === undefined) return reply.code(401).send({ error: 'unauthorized' });
      const { variant, id, date } = request.params;
      const amounts = await asyncVariants[variant].log(user, Number(id), date, request.body.amount);
      if (!amounts) return reply.code(404).send({ error: 'not_found' });
      return { ok: true, date, amounts };
    },
  );
  app.patch<{ Params: { variant: keyof typeof asyncVariants; id: string }; Body: { sets: Sets } }>(
    '/:variant/goals/:id',
    async (request, reply) => {
      const user = userOf(request.headers.cookie);
      if (user === undefined) return reply.code(401).send({ error: 'unauthorized' });
      const { variant, id } = request.params;
      if (!(await asyncVariants[variant].patch(user, Number(id), request.body.sets)))
        return reply.code(404).send({ error: 'not_found' });
      return { ok: true };
    },
  );
  app.get('/stats', async () => {
    const stats = { cpuMicros: cpuMicros(), writesPerTurn: turns ? turnWrites / turns : null };
    turns = 0;
    turnWrites = 0;
    return stats;
  });
  return app.listen({ host: '127.0.0.1', port: 0 }).then((url) => {
    const info: ServeInfo = { url, tokens, goalIds };
    console.log(JSON.stringify(info));
    process.stdin.on('end', () => process.exit(0));
    process.stdin.resume();
  });
}

async function drive() {
  const { values: flags } = parseArgs({
    options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '2' } },
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'steady-storage-')), 'experiment.db');
  const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve', file], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const info = JSON.parse(
    await new Promise<string>((resolve) => createInterface({ input: server.stdout }).once('line', resolve)),
  ) as ServeInfo;
  const dates = Object.keys(benchSets(DATES, AMOUNTS_PER_DATE));
  const patchBodies = [0, 1, 2].map((salt) => JSON.stringify({ sets: benchSets(DATES, AMOUNTS_PER_DATE, salt) }));
  // The PATCHes sent to each goal so far: the next one carries the next of the three bodies.
  const patchesSent = new Map<number, number>();
  const nextPatchBody = (goalId: number) => {
    const sent = patchesSent.get(goalId) ?? 0;
    patchesSent.set(goalId, sent + 1);
    return patchBodies[sent % patchBodies.length]!;
  };
  let turn = 0;
  // Each request a user's goal and date in turn, as the bench's log and PATCH spread them.
  const requestsFor = (kind: 'log' | 'patch', variant: string): LoadRequest[] =>
    info.tokens.flatMap((token, user) =>
      info.goalIds[user]!.map((goalId) => {
        const headers = { cookie: `s=${token}`, 'content-type': 'application/json' };
        turn += 1;
        if (kind === 'log')
          return {
            method: 'POST' as const,
            path: `/${variant}/goals/${goalId}/sets/${dates[(turn * 7) % DATES]}`,
            headers,
            body: JSON.stringify({ amount: 1 }),
          };
        const patch = { method: 'PATCH' as const, path: `/${variant}/goals/${goalId}`, headers };
        return { ...patch, setupRequest: () => ({ ...patch, body: nextPatchBody(goalId) }) };
      }),
    );
  const stats = async () => (await (await fetch(`${info.url}/stats`)).json()) as Record<string, number | null>;
  async function measure(options: LoadOptions) {
    const before = await stats();
    const result = await autocannon({ connections: CONNECTIONS, duration: Number(flags.seconds), ...options });
    const after = await stats();
    if (result.non2xx || result.errors)
      throw new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return {
      requestsPerSecond: result.requests.average,
      p99Ms: result.latency.p99,
      cpuMicrosPerRequest: (after.cpuMicros! - before.cpuMicros!) / result.requests.total,
      writesPerTurn: after.writesPerTurn,
    };
  }
  const variants = ['rows', 'rows-shared', 'months', 'months-shared', 'days', 'days-shared'];
  const figures: Record<string, Array<Awaited<ReturnType<typeof measure>> & { ratioToHello: number }>> = {};
  for (let round = 0; round < Number(flags.rounds); round++) {
    const hello = await measure({ url: `${info.url}/hello` });
    (figures.hello ??= []).push({ ...hello, ratioToHello: 1 });
    for (const kind of ['log', 'patch'] as const)
      for (const variant of variants) {
        const figure = await measure({ url: info.url, requests: requestsFor(kind, variant) });
        (figures[`${kind} ${variant}`] ??= []).push({
          ...figure,
          ratioToHello: figure.requestsPerSecond / hello.requestsPerSecond,
        });
      }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const summary = Object.fromEntries(
    Object.entries(figures).map(([name, rounds]) => [
      name,
      {
        ratioToHello: Number(mean(rounds.map((r) => r.ratioToHello)).toFixed(3)),
        requestsPerSecond: Math.round(mean(rounds.map((r) => r.requestsPerSecond))),
        p99Ms: Math.round(mean(rounds.map((r) => r.p99Ms))),
        cpuMicrosPerRequest: Math.round(mean(rounds.map((r) => r.cpuMicrosPerRequest))),
        writesPerTurn:
          rounds[0]!.writesPerTurn === null ? null : Number(mean(rounds.map((r) => r.writesPerTurn!)).toFixed(1)),
        roundRatios: rounds.map((r) => Number(r.ratioToHello.toFixed(3))),
      },
    ]),
  );
  for (const [name, figure] of Object.entries(summary))
    console.log(
      `${name.padEnd(20)} ${figure.ratioToHello.toFixed(3)} of hello  ${String(figure.requestsPerSecond).padStart(6)} req/s` +
        `  p99 ${String(figure.p99Ms).padStart(4)} ms  ${String(figure.cpuMicrosPerRequest).padStart(5)} µs CPU/request` +
        (figure.writesPerTurn === null ? '' : `  ${figure.writesPerTurn} writes per commit`),
    );
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  const date = new Date().toISOString();
  const written = path.join(out, `${date.slice(0, 16).replace(':', '')}-storage-experiment.json`);
  fs.writeFileSync(
    written,
    `${JSON.stringify({ date, machine: { cpus: os.cpus().length, node: process.version }, settings: { connections: CONNECTIONS, rounds: Number(flags.rounds), roundSeconds: Number(flags.seconds), seed: { users: USERS, goals: GOALS, dates: DATES, amountsPerDate: AMOUNTS_PER_DATE } }, figures: summary }, null, 2)}\n`,
  );
  console.log(`figures written to ${path.relative(process.cwd(), written)}`);
  server.stdin.end();
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
