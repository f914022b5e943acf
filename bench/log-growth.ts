// `npx tsx bench/log-growth.ts`: what logging one amount costs on a goal with 30 dates against one with 3,650
// (issue 12 point 4; docs/decisions/0090-goal-entries.md). Since amounts are one row each, a logging reads and
// writes only its own date, so both rates should be about the same (the target: within 2×).
//
// The server runs in a child process (this file with `--serve`) so the load generator does not steal its event
// loop. Both goals get the same load in alternating rounds: POSTs cycling over the same 30 most recent dates, so
// every date grows alike on both goals and only the goal's length differs. SQLite always; PostgreSQL too when
// 127.0.0.1:5432 (BENCH_PG_URL) answers, on a fresh database dropped afterwards.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const ORIGIN = 'http://127.0.0.1';
/** Dates of the two goals; each date starts with two amounts. */
const GOAL_DATES = [30, 3650] as const;
/** The dates the load cycles over: the most recent ones of each goal. */
const LOGGED_DATES = 30;
const STARTUP_TIMEOUT_MS = 120_000;

export type Engine = 'sqlite' | 'postgres';

export interface LogGrowthOptions {
  engine: Engine;
  connections?: number;
  rounds?: number;
  roundSeconds?: number;
  /** PostgreSQL server to create the temporary database on. */
  pgAdminUrl?: string;
}

export interface LogGrowthFigure {
  engine: Engine;
  goalDates: number;
  withEntryId: boolean;
  /** Mean of the rounds, successful answers per second. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 200 (must be 0). */
  failures: number;
}

interface ServerInfo {
  url: string;
  cookie: string;
  goals: Record<string, string>;
}

/** autocannon's programmatic API, as far as this file uses it (bench/autocannon.d.ts covers run.ts's part). */
interface CannonResult {
  requests: { total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type CannonRequest = { method: string; path: string; headers: Record<string, string>; body: string };
const cannon = autocannon as unknown as (options: {
  url: string;
  connections: number;
  duration: number;
  requests: Array<{ method: string; setupRequest: (request: CannonRequest) => CannonRequest }>;
}) => Promise<CannonResult>;

/** Starts a server on `engine`, measures every goal length with and without entry ids, and stops the server. */
export async function measureLogGrowth(options: LogGrowthOptions): Promise<LogGrowthFigure[]> {
  const { engine, connections = 10, rounds = 3, roundSeconds = 2 } = options;
  const database = await temporaryDatabase(engine, options.pgAdminUrl);
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', database.url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const info = await serverInfo(child.stdout!);
    const targets = GOAL_DATES.flatMap((goalDates) =>
      [false, true].map((withEntryId) => ({
        goalDates,
        withEntryId,
        rates: [] as number[],
        p50: [] as number[],
        p99: [] as number[],
        failures: 0,
      })),
    );
    const round = async (target: (typeof targets)[number], seconds: number) => {
      let next = 0;
      const dates = recentDates(target.goalDates);
      const result = await cannon({
        url: info.url,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => ({
              ...request,
              method: 'POST',
              path: `/api/goals/${info.goals[target.goalDates]}/sets/${dates[next++ % dates.length]}`,
              headers: { ...request.headers, origin: ORIGIN, cookie: info.cookie, 'content-type': 'application/json' },
              body: JSON.stringify(target.withEntryId ? { amount: 1, entry_id: randomUUID() } : { amount: 1 }),
            }),
          },
        ],
      });
      const failures = result.non2xx + result.errors + result.timeouts;
      return { rate: (result.requests.total - failures) / seconds, result, failures };
    };
    for (const target of targets) await round(target, 1); // warm-up, not counted
    for (let r = 0; r < rounds; r++) {
      for (const target of targets) {
        const { rate, result, failures } = await round(target, roundSeconds);
        target.rates.push(rate);
        target.p50.push(result.latency.p50);
        target.p99.push(result.latency.p99);
        target.failures += failures;
      }
    }
    return targets.map((target) => ({
      engine,
      goalDates: target.goalDates,
      withEntryId: target.withEntryId,
      rate: mean(target.rates),
      p50Ms: mean(target.p50),
      p99Ms: mean(target.p99),
      failures: target.failures,
    }));
  } finally {
    child.stdin!.end();
    await new Promise((resolve) => child.once('exit', resolve));
    await database.drop();
  }
}

/** The last `LOGGED_DATES` dates of a goal with `goalDates` dates starting 2016-01-01. */
function recentDates(goalDates: number): string[] {
  return Array.from({ length: LOGGED_DATES }, (_, i) => dayKey(goalDates - LOGGED_DATES + i));
}

function dayKey(offset: number): string {
  return new Date(Date.UTC(2016, 0, 1 + offset)).toISOString().slice(0, 10);
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

async function serverInfo(stdout: NodeJS.ReadableStream): Promise<ServerInfo> {
  const lines = createInterface({ input: stdout })[Symbol.asyncIterator]();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('the bench server did not start')), STARTUP_TIMEOUT_MS).unref(),
  );
  const first = await Promise.race([lines.next(), timeout]);
  return JSON.parse(first.value as string) as ServerInfo;
}

async function temporaryDatabase(engine: Engine, pgAdminUrl = process.env.BENCH_PG_URL ?? defaultPgUrl()) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'steady-log-growth-'));
  const removeDir = () => fs.rm(dataDir, { recursive: true, force: true });
  if (engine === 'sqlite') return { url: `sqlite:${path.join(dataDir, 'steady.db')}`, drop: removeDir };
  const name = `steady_bench_${randomBytes(6).toString('hex')}`;
  await withClient(pgAdminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      await withClient(pgAdminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      await removeDir();
    },
  };
}

function defaultPgUrl(): string {
  return 'postgres://postgres@127.0.0.1:5432/postgres';
}

async function withClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

async function postgresReachable(): Promise<boolean> {
  try {
    await withClient(process.env.BENCH_PG_URL ?? defaultPgUrl(), (client) => client.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

/** The child process: the real app on `databaseUrl`, one user with a 30-date and a 3,650-date goal. */
async function serve(databaseUrl: string): Promise<void> {
  const { pino } = await import('pino');
  const { buildApp } = await import('../src/server/app.js');
  const { systemClock } = await import('../src/server/clock.js');
  const { loadConfig } = await import('../src/server/config.js');
  const { createInvite } = await import('../src/server/invites/service.js');
  const { openServices } = await import('../src/server/services.js');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'steady-log-growth-data-'));
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, BASE_URL: ORIGIN, LOG_LEVEL: 'silent' });
  const services = await openServices(config, {
    clock: systemClock,
    log: pino({ level: 'silent' }),
    webRoot: path.join(dataDir, 'no-web-build'),
  });
  const app = await buildApp(services.deps);

  const { token } = await createInvite(services.deps, null, null);
  const registered = await app.inject({
    method: 'POST',
    url: '/api/register',
    headers: { origin: ORIGIN },
    payload: { email: 'bench@example.com', password: 'bench password', token },
  });
  const session = registered.cookies.find((c) => c.name === 'steady_session');
  if (!session) throw new Error(`register: ${registered.statusCode} ${registered.body}`);
  const cookie = `${session.name}=${session.value}`;
  const goals: Record<string, string> = {};
  for (const dates of GOAL_DATES) {
    const sets: Record<string, number[]> = {};
    for (let d = 0; d < dates; d++) sets[dayKey(d)] = [1, 2];
    const created = await app.inject({
      method: 'POST',
      url: '/api/goals',
      headers: { origin: ORIGIN, cookie },
      payload: { name: `${dates} dates`, start: '2016-01-01', sets },
    });
    if (created.statusCode !== 200) throw new Error(`create goal: ${created.statusCode} ${created.body}`);
    goals[dates] = created.json<{ id: string }>().id;
  }
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(JSON.stringify({ url, cookie, goals } satisfies ServerInfo));

  // The parent closes our stdin when it is done (or dies); either way this process must not outlive it.
  process.stdin.on('end', () => {
    void (async () => {
      await app.close();
      await services.close();
      await fs.rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
  process.stdin.resume();
}

function printFigures(figures: LogGrowthFigure[]): void {
  for (const figure of figures) {
    const label = `${figure.engine} log one amount, ${String(figure.goalDates).padStart(4)} dates${figure.withEntryId ? ', entry_id' : ''}`;
    console.log(
      `${label.padEnd(48)} ${figure.rate.toFixed(0).padStart(6)} req/s  p50 ${figure.p50Ms.toFixed(1)} ms  ` +
        `p99 ${figure.p99Ms.toFixed(1)} ms${figure.failures ? `  FAILURES ${figure.failures}` : ''}`,
    );
  }
  for (const withEntryId of [false, true]) {
    const [short, long] = GOAL_DATES.map((dates) =>
      figures.find((f) => f.goalDates === dates && f.withEntryId === withEntryId),
    );
    if (short && long) {
      console.log(
        `${short.engine}${withEntryId ? ' (entry_id)' : ''}: 3,650 dates log at ${((long.rate / short.rate) * 100).toFixed(0)} % ` +
          `of the 30-date rate (target: at least 50 %)`,
      );
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--serve') {
    await serve(process.argv[3]!);
  } else {
    const engines: Engine[] = ['sqlite'];
    if (await postgresReachable()) engines.push('postgres');
    else console.log('PostgreSQL not reachable (BENCH_PG_URL or 127.0.0.1:5432): SQLite only');
    let failed = false;
    for (const engine of engines) {
      const figures = await measureLogGrowth({ engine });
      printFigures(figures);
      failed ||= figures.some((figure) => figure.failures > 0);
    }
    process.exitCode = failed ? 1 : 0;
  }
}
