// `npm run bench`: every figure of issue 12 on SQLite and on PostgreSQL (when reachable), each as a ratio to a bare
// Fastify hello route served by the same process in the same run, then bench/start-time.ts. Writes every figure as
// JSON to bench/results/ and exits 1 when a target is missed.
//
// The server runs in a child process (bench/server.ts) so the load generator does not steal its event loop; both
// talk over loopback only. The routes are measured in alternating short rounds, so a busy machine slows all of them
// alike instead of whichever happened to run while something else was busy.
//
// Flags: --engine sqlite|postgres|none (default both; none: start times only), --rounds N (5), --seconds N per
// round (1), --logins-seconds N (10), --soak SECONDS (off; 600 is the record run), --pool N (PostgreSQL pool size, for measuring it),
// --routes list,log,patch,floor (default all; floor: bench/floor-store.ts), --no-growth, --no-start-time, --out FILE.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import * as esbuild from 'esbuild';
import pg from 'pg';
import { serverBundleOptions } from '../scripts/server-bundle.mjs';
import {
  benchSets,
  type FloorInfo,
  type SeededUser,
  type SeedGroup,
  type ServerInfo,
  type ServerStats,
  startScriptNodeFlags,
} from './shared.js';
import { measureLogGrowth } from './log-growth.js';
import { printStartTimes, startTimeMisses } from './start-time.js';

const CONNECTIONS = 50;
/** The main load: 20 users x 10 goals x 90 dates x 3 amounts, a 21.6 kB goal list each (issue 12). */
const MAIN_SEED: SeedGroup[] = [{ users: 20, goals: 10, dates: 90, amountsPerDate: 3 }];
const GROWTH_GOALS = [1, 10, 100];
const GROWTH_DATES = [30, 365, 3650];
const LOGIN_RATE = 100;
const STARTUP_TIMEOUT_MS = 600_000;
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Issue 12's targets. */
const TARGETS = {
  sqlite: { list: 0.4, log: 0.3, patch: 0.15, p99Ms: 15 },
  postgres: { list: 0.25, log: 0.12, patch: 0.08, p99Ms: Infinity },
  peakRssMb: 120,
  loginsPerSecond: LOGIN_RATE,
  loginLoopDelayP99Ms: 50,
  /** Largest over smallest server CPU per byte, among answers of at least GROWTH_MIN_BYTES. */
  costPerByteSpread: 2,
  soakDriftPercent: 10,
  soakFdGrowth: 5,
  /** Log rate on a goal with 3,650 dates over the rate on one with 30: the cost within 2x. */
  logGrowthRatio: 0.5,
  /** Deleting a goal on the growth database (1.3 million amounts) over on the main one (54,000): within 2x. */
  deleteGrowthRatio: 2,
};
/** Goals deleted, one at a time, for each figure of a goal's deletion (their median is the figure). */
const DELETED_GOALS = 9;
const GROWTH_MIN_BYTES = 100_000;

const { values: flags } = parseArgs({
  options: {
    engine: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '1' },
    'logins-seconds': { type: 'string', default: '10' },
    soak: { type: 'string' },
    pool: { type: 'string' },
    'node-flags': { type: 'string' },
    routes: { type: 'string' },
    'no-growth': { type: 'boolean', default: false },
    'no-start-time': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const ROUNDS = Number(flags.rounds);
// --routes narrows the main load (hello always runs: it is the yardstick), e.g. to profile one route; `floor` adds
// the floor (decision 0118) of each chosen route that has one.
const CHOSEN_ROUTES = flags.routes?.split(',') ?? ['list', 'log', 'patch', 'floor'];
const ROUND_SECONDS = Number(flags.seconds);
const LOGIN_SECONDS = Number(flags['logins-seconds']);
const SOAK_SECONDS = flags.soak === undefined ? 0 : Number(flags.soak);
// `none` runs no engine: the start times alone.
if (flags.engine !== undefined && !['sqlite', 'postgres', 'none'].includes(flags.engine))
  throw new Error(`--engine must be sqlite, postgres or none, not ${flags.engine}`);

type Engine = 'sqlite' | 'postgres';
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const misses: string[] = [];
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version, note: 'shared machine unless said' },
  settings: { connections: CONNECTIONS, rounds: ROUNDS, roundSeconds: ROUND_SECONDS, seed: MAIN_SEED },
  engines: {},
  logGrowth: {},
};

/** A fresh database for one engine's run; null (said loudly) when PostgreSQL is unreachable outside CI. */
async function benchDatabase(engine: Engine): Promise<{ url: string | undefined; drop(): Promise<void> } | null> {
  if (engine === 'sqlite') return { url: undefined, drop: async () => {} };
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await admin.connect();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (process.env.CI === 'true') throw new Error(`PostgreSQL unreachable at ${POSTGRES_ADMIN_URL}: ${why}`);
    console.error(`\n!!! bench: PostgreSQL SKIPPED: unreachable at ${POSTGRES_ADMIN_URL} (${why}) !!!\n`);
    misses.push('postgres: skipped (unreachable)');
    return null;
  }
  const name = `steady_bench_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const again = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

async function benchEngine(engine: Engine, databaseUrl: string | undefined) {
  console.log(`\n=== ${engine} ===`);
  const figures: Record<string, unknown> = {};
  const server = await startServer(databaseUrl, MAIN_SEED);
  let floor: FloorProcess | null = null;
  try {
    if (CHOSEN_ROUTES.includes('floor')) floor = await startFloor(server.info);
    figures.load = await mainLoad(engine, server, floor);
    if (LOGIN_SECONDS > 0) figures.logins = await logins(engine, server);
    figures.deleteGoal = await timedGoalDeletes(server.info, server.info.users[0]!, MAIN_SEED);
  } finally {
    await floor?.stop();
    await server.stop();
  }
  if (!flags['no-growth']) {
    const growthFigures = await growth(engine, databaseUrl);
    figures.growth = growthFigures;
    figures.deleteGoalRatio = compareGoalDeletes(engine, figures.deleteGoal as GoalDeletes, growthFigures.deleteGoal);
  }
  if (SOAK_SECONDS > 0) figures.soak = await soak(engine, databaseUrl);
  return figures;
}

/** Where a round reads the CPU time of the process that answered it. */
interface StatsSource {
  stats(): Promise<Pick<ServerStats, 'cpuMicros'>>;
}

interface BenchServer extends StatsSource {
  info: ServerInfo;
  stats(): Promise<ServerStats>;
  resetLoopDelay(): Promise<void>;
  stop(): Promise<void>;
}

async function startServer(
  databaseUrl: string | undefined,
  seed: SeedGroup[],
  extraEnv: Record<string, string> = {},
): Promise<BenchServer> {
  const env = { ...process.env, ...extraEnv, BENCH_SEED: JSON.stringify(seed) } as Record<string, string>;
  if (databaseUrl) env.BENCH_DATABASE_URL = databaseUrl;
  if (flags.pool) env.DATABASE_POOL_SIZE = flags.pool;
  const { info, stop } = await spawnBundled<ServerInfo>('server', env);
  return {
    info,
    stats: async () => (await fetch(info.stats)).json() as Promise<ServerStats>,
    resetLoopDelay: async () => void (await fetch(`${info.stats}/reset`, { method: 'POST' })),
    stop,
  };
}

interface FloorProcess extends StatsSource {
  info: FloorInfo;
  stop(): Promise<void>;
}

/** The floor's process (bench/floor-server.ts) on the app's database, with the server's Node flags. */
async function startFloor(app: ServerInfo): Promise<FloorProcess> {
  const { info, stop } = await spawnBundled<FloorInfo>('floor-server', {
    ...process.env,
    BENCH_APP_INFO: JSON.stringify(app),
  } as Record<string, string>);
  return { info, stats: async () => (await fetch(info.stats)).json() as Promise<ServerStats>, stop };
}

/** Starts bench/<entry>.ts, bundled, with the server's Node flags; its first JSON line is its info. */
async function spawnBundled<Info>(entry: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [...serverNodeFlags(), await bundledServer(entry)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env,
  });
  const info = await serverInfo<Info>(child);
  const closed = new Promise((resolve) => child.on('close', resolve));
  return {
    info,
    async stop() {
      child.stdin?.end();
      child.kill('SIGTERM');
      await closed;
    },
  };
}

/**
 * The Node flags `npm start` gives the server (package.json), so the bench measures the memory the real server has;
 * --node-flags replaces them, for measuring other settings.
 */
function serverNodeFlags(): string[] {
  if (flags['node-flags'] !== undefined) return flags['node-flags'].split(' ').filter(Boolean);
  const packageJson = JSON.parse(fs.readFileSync(path.join(benchDir, '..', 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return startScriptNodeFlags(packageJson.scripts.start);
}

const bundled = new Map<string, Promise<string>>();

/**
 * bench/<entry>.ts (the bench's server or the floor's) bundled with the options `npm run build` bundles the server
 * with (scripts/server-bundle.mjs): run through tsx, a server would carry the loader's memory and compile cost, and
 * bundled otherwise (one unminified file with every chunk in it) about 12 MB more than the real server (decision
 * 0119).
 */
function bundledServer(entry: string): Promise<string> {
  const known = bundled.get(entry);
  if (known) return known;
  const building = (async () => {
    const outdir = path.join(benchDir, '..', 'node_modules', '.cache', 'steady-bench', entry);
    fs.rmSync(outdir, { recursive: true, force: true });
    await esbuild.build({
      ...serverBundleOptions(path.join(benchDir, '..')),
      entryPoints: { [entry]: path.join(benchDir, `${entry}.ts`) },
      outdir,
    });
    return path.join(outdir, `${entry}.js`);
  })();
  bundled.set(entry, building);
  return building;
}

/** The first JSON line of the server process. */
async function serverInfo<Info = ServerInfo>(child: ChildProcess): Promise<Info> {
  const lines = createInterface({ input: child.stdout! });
  const timeout = setTimeout(() => child.kill('SIGTERM'), STARTUP_TIMEOUT_MS);
  try {
    for await (const line of lines) {
      if (line.startsWith('{')) return JSON.parse(line) as Info;
    }
    throw new Error('the benchmark server exited before it was ready');
  } finally {
    clearTimeout(timeout);
  }
}

/** One kind of request, made fresh for each call: the bench rotates users, goals and dates. */
interface Load {
  label: string;
  /** `context` is the connection's own (autocannon keeps one per connection). */
  request(
    i: number,
    context: Record<string, unknown>,
  ): { method: string; path: string; headers: Record<string, string>; body?: string };
}

interface Sample {
  rate: number;
  p99: number;
  cpuMicros: number;
}

async function mainLoad(engine: Engine, server: BenchServer, floorProcess: FloorProcess | null) {
  const { info } = server;
  await checkAnswers(info);
  const users = info.users;
  const jsonHeaders = (cookie: string) => ({ cookie, origin: info.origin, 'content-type': 'application/json' });
  const patchBodies = [0, 1, 2].map((salt) => JSON.stringify({ sets: benchSets(90, 3, salt) }));
  const appLoads: Record<'hello' | 'list' | 'listPlain' | 'log' | 'patch', Load> = {
    hello: { label: 'bare Fastify hello', request: () => ({ method: 'GET', path: '/', headers: {} }) },
    list: {
      label: 'GET /api/goals',
      request: (i) => ({ method: 'GET', path: '/api/goals', headers: { cookie: users[i % users.length]!.cookie } }),
    },
    // For comparison, no target: the list to a client that asks for no compression (decision 0119).
    listPlain: {
      label: 'the list, plain',
      request: (i) => ({
        method: 'GET',
        path: '/api/goals',
        headers: { cookie: users[i % users.length]!.cookie, 'accept-encoding': 'identity' },
      }),
    },
    log: {
      label: 'add one amount',
      request: (i) => {
        const user = users[i % users.length]!;
        const goal = user.goalIds[Math.floor(i / users.length) % user.goalIds.length]!;
        const date = new Date(Date.UTC(2016, 0, 1 + (i % 90))).toISOString().slice(0, 10);
        return {
          method: 'POST',
          path: `/api/goals/${goal}/sets/${date}`,
          headers: jsonHeaders(user.cookie),
          body: JSON.stringify({ amount: 1 + (i % 7) }),
        };
      },
    },
    patch: {
      label: 'PATCH 90 dates',
      request: (i) => {
        const user = users[i % users.length]!;
        const goal = user.goalIds[Math.floor(i / users.length) % user.goalIds.length]!;
        return {
          method: 'PATCH',
          path: `/api/goals/${goal}`,
          headers: jsonHeaders(user.cookie),
          body: patchBodies[i % patchBodies.length]!,
        };
      },
    },
  };
  // The floor (decision 0118) answers the same requests as the app, with nothing but the statements.
  const loads = {
    ...appLoads,
    floorList: { ...appLoads.list, label: 'floor: list' },
    floorLog: { ...appLoads.log, label: 'floor: add amount' },
    floorPatch: { ...appLoads.patch, label: 'floor: PATCH' },
  } satisfies Record<string, Load>;
  type Route = keyof typeof loads;
  type Measured = 'list' | 'log' | 'patch';
  const floorOf: Partial<Record<Route, Measured>> = { floorList: 'list', floorLog: 'log', floorPatch: 'patch' };
  /** Figures printed beside the route they compare with, judged by no target of their own. */
  const comparisonOf: Partial<Record<Route, Measured>> = { ...floorOf, listPlain: 'list' };
  const keys = (Object.keys(loads) as Route[]).filter((key) => {
    if (floorOf[key] && floorProcess === null) return false;
    return key === 'hello' || CHOSEN_ROUTES.includes(comparisonOf[key] ?? key);
  });
  const floor = floorProcess?.info.url ?? '';
  const urls: Record<Route, string> = {
    hello: info.hello.replace(/\/$/, ''),
    list: info.app,
    listPlain: info.app,
    log: info.app,
    patch: info.app,
    floorList: floor,
    floorLog: floor,
    floorPatch: floor,
  };
  const samples = Object.fromEntries(keys.map((key) => [key, [] as Sample[]])) as Record<Route, Sample[]>;
  const rest = await server.stats();
  const pid = server.info.pid;
  // Each round's CPU time is read from the process that answered it.
  const answeredBy = (key: Route): StatsSource => (floorOf[key] && floorProcess ? floorProcess : server);
  for (const key of keys) await measure(urls[key], loads[key], answeredBy(key), CONNECTIONS, ROUND_SECONDS); // warm-up
  // The kernel's peak RSS of the app is read and restarted after each of the app's rounds, so the peak is known per
  // route as well; the floor's rounds do not load the app.
  const peakByRoute: Partial<Record<Route, number>> = {};
  resetPeakRss(pid);
  for (let round = 0; round < ROUNDS; round++) {
    for (const key of keys) {
      samples[key].push(await measure(urls[key], loads[key], answeredBy(key), CONNECTIONS, ROUND_SECONDS));
      if (floorOf[key]) continue;
      peakByRoute[key] = Math.max(peakByRoute[key] ?? 0, peakRssBytes(pid));
      resetPeakRss(pid);
    }
  }
  const peakRss = Math.max(...Object.values(peakByRoute));
  const loaded = await server.stats();

  const hello = mean(samples.hello.map((s) => s.rate));
  const figures: Record<string, unknown> = {};
  console.log(`${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s per route:`);
  for (const key of keys) {
    const list = samples[key];
    const rate = mean(list.map((s) => s.rate));
    const figure = {
      requestsPerSecond: round1(rate),
      ratioToHello: round3(rate / hello),
      p99Ms: Math.max(...list.map((s) => s.p99)),
      serverCpuMicrosPerRequest: Math.round(mean(list.map((s) => s.cpuMicros))),
      roundRatios: list.map((s, i) => round3(s.rate / samples.hello[i]!.rate)),
    };
    figures[key] = figure;
    console.log(
      `${loads[key].label.padEnd(20)} ${rate.toFixed(0).padStart(7)} req/s  ${`${(figure.ratioToHello * 100).toFixed(1)} %`.padStart(7)} of hello` +
        `  p99 ${String(figure.p99Ms).padStart(4)} ms  ${String(figure.serverCpuMicrosPerRequest).padStart(5)} µs server CPU/request`,
    );
    const measured = floorOf[key];
    if (measured) {
      // No target of its own: it says whether the measured route's target is within reach of code that gives each
      // request its own transaction, and how close Steady comes to that here (decisions 0122, 0123).
      const target = TARGETS[engine][measured];
      const app = figures[measured] as { requestsPerSecond: number } | undefined;
      const appToFloor = app ? round3(app.requestsPerSecond / figure.requestsPerSecond) : null;
      figures[key] = { ...figure, appToFloor };
      console.log(
        `  the floor of ${loads[measured].label} is ${figure.ratioToHello} of hello against a target of ${target}` +
          (figure.ratioToHello < target
            ? ': the target is out of reach of any code with a transaction per request on this machine'
            : '') +
          (appToFloor === null ? '' : `; Steady answers ${appToFloor} of the floor's requests`),
      );
    } else if (key !== 'hello' && !comparisonOf[key]) {
      const target = TARGETS[engine][key as 'list' | 'log' | 'patch'];
      if (figure.ratioToHello < target)
        misses.push(`${engine} ${loads[key].label}: ${figure.ratioToHello} of hello < ${target}`);
      if (figure.p99Ms > TARGETS[engine].p99Ms) {
        misses.push(`${engine} ${loads[key].label}: p99 ${figure.p99Ms} ms > ${TARGETS[engine].p99Ms} ms`);
      }
    }
  }
  const memory = {
    atRestMb: mb(rest.rss),
    peakRssMb: mb(peakRss),
    peakRssByRouteMb: Object.fromEntries(Object.entries(peakByRoute).map(([key, bytes]) => [key, mb(bytes!)])),
    heapUsedLoadedMb: mb(loaded.heapUsed),
    externalLoadedMb: mb(loaded.external),
  };
  figures.memory = memory;
  console.log(
    `server RSS at rest ${memory.atRestMb} MB, peak under load ${memory.peakRssMb} MB (target <= ${TARGETS.peakRssMb}; ` +
      `by route ${JSON.stringify(memory.peakRssByRouteMb)})`,
  );
  if (memory.peakRssMb > TARGETS.peakRssMb)
    misses.push(`${engine} peak RSS ${memory.peakRssMb} MB > ${TARGETS.peakRssMb} MB`);
  return figures;
}

/** A fast wrong answer is not a result: the list must hold the seeded goals. */
async function checkAnswers(info: ServerInfo): Promise<void> {
  const response = await fetch(`${info.app}/api/goals`, { headers: { cookie: info.users[0]!.cookie } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  const text = await response.text();
  const body = JSON.parse(text) as Array<{ sets: Record<string, number[]> }>;
  const seed = MAIN_SEED[0]!;
  assert.equal(body.length, seed.goals);
  for (const goal of body) {
    const days = Object.values(goal.sets);
    assert.equal(days.length, seed.dates);
    assert.ok(days.every((amounts) => amounts.length === seed.amountsPerDate));
  }
  console.log(`GET /api/goals answers ${body.length} goals, ${Buffer.byteLength(text)} bytes`);
}

/** One short run of `load`: requests per second, p99 and server CPU per request; every answer must be a 2xx. */
async function measure(
  url: string,
  load: Load,
  server: StatsSource,
  connections: number,
  seconds: number,
  rate?: number,
) {
  const before = await server.stats();
  const result = await autocannon(loadOptions(url, load, connections, seconds, rate));
  const after = await server.stats();
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${load.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  const requests = result.requests.total;
  return {
    rate: requests / seconds,
    p99: result.latency.p99,
    cpuMicros: (after.cpuMicros - before.cpuMicros) / Math.max(1, requests),
    bytesPerRequest: result.throughput.total / Math.max(1, requests),
  };
}

/** `requests` requests of `load`: their rate, p99 and server CPU per request; every answer must be a 2xx. */
async function measureCount(url: string, load: Load, server: BenchServer, connections: number, requests: number) {
  const before = await server.stats();
  const started = performance.now();
  const result = await autocannon({
    url,
    connections,
    amount: requests,
    timeout: 60,
    requests: [browserRequests(load)],
  });
  const seconds = (performance.now() - started) / 1000;
  const after = await server.stats();
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${load.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return {
    rate: result.requests.total / seconds,
    p99: result.latency.p99,
    cpuMicros: (after.cpuMicros - before.cpuMicros) / Math.max(1, result.requests.total),
  };
}

function loadOptions(url: string, load: Load, connections: number, seconds: number, rate?: number) {
  return {
    url,
    connections,
    duration: seconds,
    ...(rate !== undefined && { overallRate: rate }),
    requests: [browserRequests(load)],
  };
}

/**
 * Every request carries the `Accept-Encoding` Chromium sends (seen here on http://127.0.0.1 and localhost; https is
 * the same), so the goal list is measured as phones receive it (decision 0119); a load's own headers come last and
 * may override it.
 */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** autocannon's request of `load`, made fresh for each call (numbered from 0 per run). */
function browserRequests(load: Load) {
  let i = 0;
  return {
    setupRequest: (request: object, context: Record<string, unknown>) => {
      const made = load.request(i++, context);
      return Object.assign(request, made, { headers: { ...BROWSER_HEADERS, ...made.headers } });
    },
  };
}

/** Logins at a fixed rate from many client addresses, with the server's event-loop delay meanwhile. */
async function logins(engine: Engine, server: BenchServer) {
  const { info } = server;
  const load: Load = {
    label: 'login',
    request: (i) => ({
      method: 'POST',
      path: '/api/login',
      headers: {
        origin: info.origin,
        'content-type': 'application/json',
        'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      },
      body: JSON.stringify({ email: info.users[i % info.users.length]!.email, password: info.password }),
    }),
  };
  resetPeakRss(info.pid);
  await server.resetLoopDelay();
  const result = await measure(info.app, load, server, 20, LOGIN_SECONDS, LOGIN_RATE);
  const stats = await server.stats();
  const figures = {
    offeredPerSecond: LOGIN_RATE,
    loginsPerSecond: round1(result.rate),
    p99Ms: result.p99,
    serverCpuMicrosPerLogin: Math.round(result.cpuMicros),
    loopDelayP99Ms: round1(stats.loopDelayP99Ms),
    loopDelayMaxMs: round1(stats.loopDelayMaxMs),
    peakRssMb: mb(peakRssBytes(info.pid)),
    // The server inherits this environment; the app cannot change the pool's size (decision 0113).
    threadPool: process.env.UV_THREADPOOL_SIZE ?? "4 (Node's default)",
  };
  console.log(
    `logins: ${figures.loginsPerSecond}/s of ${LOGIN_RATE}/s offered for ${LOGIN_SECONDS} s, p99 ${figures.p99Ms} ms, ` +
      `event-loop delay p99 ${figures.loopDelayP99Ms} ms (max ${figures.loopDelayMaxMs}), peak RSS ${figures.peakRssMb} MB`,
  );
  if (figures.loginsPerSecond < LOGIN_RATE * 0.98)
    misses.push(`${engine} logins ${figures.loginsPerSecond}/s < ${LOGIN_RATE}/s`);
  if (figures.loopDelayP99Ms > TARGETS.loginLoopDelayP99Ms) {
    misses.push(
      `${engine} login event-loop delay p99 ${figures.loopDelayP99Ms} ms > ${TARGETS.loginLoopDelayP99Ms} ms`,
    );
  }
  return figures;
}

/** GET /api/goals for users with 1, 10 and 100 goals of 30, 365 and 3,650 dates: time, bytes and cost per byte. */
async function growth(engine: Engine, databaseUrl: string | undefined) {
  const seed: SeedGroup[] = [];
  for (const goals of GROWTH_GOALS)
    for (const dates of GROWTH_DATES) seed.push({ users: 1, goals, dates, amountsPerDate: 3 });
  console.log(`growth: seeding ${seed.length} users...`);
  // Without the list cache, so every request reads and builds the whole list: the cost that could grow faster than
  // the answer (a cached list only copies bytes).
  const server = await startServer(databaseUrl, seed, { GOAL_LIST_CACHE_MB: '0' });
  const rows: Array<Record<string, number>> = [];
  let deleteGoal: GoalDeletes;
  try {
    for (const user of server.info.users) {
      const kind = seed[user.group]!;
      const load: Load = {
        label: `list ${kind.goals}x${kind.dates}`,
        request: () => ({ method: 'GET', path: '/api/goals', headers: { cookie: user.cookie } }),
      };
      // A fixed count of requests, about 30 MB of answers (at least 20), so an 11 MB list is timed as well as a
      // 2 kB one; 10 connections (2 for answers over 1 MB) keep the server busy without many huge answers in memory
      // at once.
      const size = Buffer.byteLength(
        await (await fetch(`${server.info.app}/api/goals`, { headers: { cookie: user.cookie } })).text(),
      );
      const requests = Math.max(20, Math.min(5_000, Math.round(30e6 / size)));
      const result = await measureCount(server.info.app, load, server, size > 1e6 ? 2 : 10, requests);
      rows.push({
        goals: kind.goals,
        dates: kind.dates,
        answerBytes: size,
        requests,
        requestsPerSecond: round1(result.rate),
        p99Ms: result.p99,
        serverCpuMicrosPerRequest: Math.round(result.cpuMicros),
        serverCpuNanosPerByte: round3((result.cpuMicros * 1000) / size),
      });
    }
    // Last: the goals are gone afterwards. Those of the user with 100 goals of 30 dates, the smallest goals here.
    const manySmallGoals = server.info.users.find(
      (user) => seed[user.group]!.goals === 100 && seed[user.group]!.dates === 30,
    )!;
    deleteGoal = await timedGoalDeletes(server.info, manySmallGoals, seed);
  } finally {
    await server.stop();
  }
  console.log('growth of GET /api/goals (server CPU per request and per byte of answer):');
  for (const row of rows) {
    console.log(
      `  ${String(row.goals).padStart(3)} goals x ${String(row.dates).padStart(4)} dates: ${String(row.answerBytes).padStart(9)} B  ` +
        `${String(row.requestsPerSecond).padStart(8)} req/s  p99 ${String(row.p99Ms).padStart(4)} ms  ${String(row.serverCpuMicrosPerRequest).padStart(7)} µs  ${row.serverCpuNanosPerByte} ns/B`,
    );
  }
  const big = rows.filter((row) => row.answerBytes! >= GROWTH_MIN_BYTES).map((row) => row.serverCpuNanosPerByte!);
  const spread = round3(Math.max(...big) / Math.min(...big));
  console.log(
    `  cost per byte, answers >= ${GROWTH_MIN_BYTES} B: largest / smallest ${spread} (target <= ${TARGETS.costPerByteSpread})`,
  );
  if (spread > TARGETS.costPerByteSpread)
    misses.push(`${engine} growth: cost per byte spread ${spread} > ${TARGETS.costPerByteSpread}`);
  return { rows, costPerByteSpread: spread, deleteGoal };
}

interface GoalDeletes {
  /** Amounts stored on the server when the deleting began, as seeded (logs of the main load not counted). */
  databaseAmounts: number;
  medianMs: number;
  slowestMs: number;
}

/**
 * `DELETE /api/goals/:id` of DELETED_GOALS of the user's goals, one at a time, as a client waits for it: a goal's
 * deletion must cost what its own amounts cost, not what the whole database holds (decision 0136).
 */
async function timedGoalDeletes(info: ServerInfo, user: SeededUser, seed: SeedGroup[]): Promise<GoalDeletes> {
  const times: number[] = [];
  for (const goalId of user.goalIds.slice(0, DELETED_GOALS)) {
    const started = performance.now();
    const response = await fetch(`${info.app}/api/goals/${goalId}`, {
      method: 'DELETE',
      headers: { cookie: user.cookie, origin: info.origin },
    });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const databaseAmounts = seed.reduce(
    (sum, kind) => sum + kind.users * kind.goals * kind.dates * kind.amountsPerDate,
    0,
  );
  return { databaseAmounts, medianMs: round3(times[Math.floor(times.length / 2)]!), slowestMs: round3(times.at(-1)!) };
}

/** The growth database's goal deletion against the main one's: the database's size must not show. */
function compareGoalDeletes(engine: Engine, main: GoalDeletes, grown: GoalDeletes): number {
  const ratio = round3(grown.medianMs / main.medianMs);
  const figure = (deletes: GoalDeletes) =>
    `${deletes.medianMs} ms (slowest ${deletes.slowestMs}) among ${deletes.databaseAmounts.toLocaleString('en')} amounts`;
  console.log(
    `delete a goal, median of ${DELETED_GOALS}: ${figure(main)}; ${figure(grown)}: ratio ${ratio} ` +
      `(target <= ${TARGETS.deleteGrowthRatio})`,
  );
  if (ratio > TARGETS.deleteGrowthRatio)
    misses.push(`${engine} delete a goal: ${ratio} times slower on the larger database`);
  return ratio;
}

/** Mixed reads, logs and PATCHes at 50 connections for SOAK_SECONDS: errors, RSS per minute, open descriptors. */
async function soak(engine: Engine, databaseUrl: string | undefined) {
  console.log(`soak: ${SOAK_SECONDS} s of mixed load on ${engine}...`);
  const server = await startServer(databaseUrl, MAIN_SEED);
  const { info } = server;
  const users = info.users;
  const headers = (cookie: string) => ({ cookie, origin: info.origin, 'content-type': 'application/json' });
  const patchBodies = [0, 1, 2].map((salt) => JSON.stringify({ sets: benchSets(90, 3, salt) }));
  const pick = (i: number) => {
    const user = users[i % users.length]!;
    return { user, goal: user.goalIds[Math.floor(i / users.length) % user.goalIds.length]! };
  };
  // 30 connections read, 15 log (an amount, then take it back: the goals keep their size), 5 PATCH whole sets of
  // other goals (a PATCH would drop the amount a connection is about to take back).
  const logGoals = (i: number) => {
    const user = users[i % users.length]!;
    return { user, goal: user.goalIds[Math.floor(i / users.length) % (user.goalIds.length - 3)]! };
  };
  const patchGoals = (i: number) => {
    const user = users[i % users.length]!;
    return { user, goal: user.goalIds[user.goalIds.length - 1 - (Math.floor(i / users.length) % 3)]! };
  };
  const mixes: Array<[Load, number]> = [
    [
      {
        label: 'read',
        request: (i) => ({ method: 'GET', path: '/api/goals', headers: { cookie: pick(i).user.cookie } }),
      },
      30,
    ],
    [
      {
        label: 'log',
        // Each connection alternates: log 3 on a date, then take that 3 back.
        request: (i, context) => {
          const undo = context.undo as { path: string; cookie: string } | undefined;
          context.undo = undefined;
          if (undo) return { method: 'POST', path: undo.path, headers: headers(undo.cookie), body: '{"amount":3}' };
          const { user, goal } = logGoals(i);
          const date = new Date(Date.UTC(2016, 0, 1 + (i % 90))).toISOString().slice(0, 10);
          const path = `/api/goals/${goal}/sets/${date}`;
          context.undo = { path: `${path}/remove`, cookie: user.cookie };
          return { method: 'POST', path, headers: headers(user.cookie), body: '{"amount":3}' };
        },
      },
      15,
    ],
    [
      {
        label: 'patch',
        request: (i) => {
          const { user, goal } = patchGoals(i);
          return {
            method: 'PATCH',
            path: `/api/goals/${goal}`,
            headers: headers(user.cookie),
            body: patchBodies[i % 3]!,
          };
        },
      },
      5,
    ],
  ];
  // The JavaScript heap beside the RSS: an RSS that keeps rising with a flat heap is native memory (SQLite, malloc),
  // one whose heap rises with it is JavaScript holding on to objects.
  const samples: Array<{ second: number; rssMb: number; heapMb: number; fds: number }> = [];
  const started = performance.now();
  // Only samples begun under the load count: one taken as the load ends sees its connections closed.
  let loaded = true;
  const sample = async () => {
    if (!loaded) return;
    const second = Math.round((performance.now() - started) / 1000);
    const fds = openFds(info.pid);
    const rssMb = mb(rssBytes(info.pid));
    const { heapUsed } = await server.stats();
    samples.push({ second, rssMb, heapMb: mb(heapUsed), fds });
  };
  await sample();
  // A sample that fails (the server gone) fails the soak once the load is over.
  let sampling = Promise.resolve();
  let sampleFailure: unknown;
  const timer = setInterval(() => {
    sampling = sample().catch((error: unknown) => void (sampleFailure ??= error));
  }, 10_000);
  let outcome;
  try {
    outcome = await Promise.all(
      mixes.map(([load, connections]) => autocannon(loadOptions(info.app, load, connections, SOAK_SECONDS))),
    );
  } finally {
    loaded = false;
    clearInterval(timer);
    await sampling;
    await server.stop();
  }
  if (sampleFailure) throw sampleFailure;
  const perMinute = [];
  // A minute's RSS is the mean of its samples: a single sample lands anywhere on the collector's sawtooth.
  for (let minute = 1; minute * 60 <= SOAK_SECONDS; minute++) {
    const within = samples.filter((s) => s.second > (minute - 1) * 60 && s.second <= minute * 60);
    const at = within.at(-1) ?? samples.at(-1)!;
    perMinute.push({
      minute,
      rssMb: round1(mean(within.map((s) => s.rssMb))),
      heapMb: round1(mean(within.map((s) => s.heapMb))),
      fds: at.fds,
    });
  }
  const errors = outcome.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0);
  const requests = outcome.reduce((sum, r) => sum + r.requests.total, 0);
  const second = perMinute.find((m) => m.minute === 2) ?? perMinute[0];
  const last = perMinute.at(-1);
  const driftPercent = second && last ? round1(((last.rssMb - second.rssMb) / second.rssMb) * 100) : null;
  const fdGrowth = last && perMinute[0] ? last.fds - perMinute[0].fds : null;
  const figures = {
    seconds: SOAK_SECONDS,
    errors,
    requestsPerSecond: round1(requests / SOAK_SECONDS),
    byKind: Object.fromEntries(
      outcome.map((r, k) => [
        mixes[k]![0].label,
        {
          requestsPerSecond: round1(r.requests.total / SOAK_SECONDS),
          p99Ms: r.latency.p99,
          statusCodes: r.statusCodeStats,
          errors: r.errors,
          timeouts: r.timeouts,
        },
      ]),
    ),
    rssPerMinuteMb: perMinute.map((m) => m.rssMb),
    heapPerMinuteMb: perMinute.map((m) => m.heapMb),
    fdsPerMinute: perMinute.map((m) => m.fds),
    rssDriftPercentMinute2ToEnd: driftPercent,
    fdGrowth,
    samples,
  };
  console.log(
    `soak ${engine}: ${errors} errors, ${figures.requestsPerSecond} req/s, RSS per minute ${figures.rssPerMinuteMb.join(' ')} MB ` +
      `(drift minute 2 -> end ${driftPercent} %), JS heap per minute ${figures.heapPerMinuteMb.join(' ')} MB, ` +
      `fds ${figures.fdsPerMinute.join(' ')}`,
  );
  if (errors > 0) misses.push(`${engine} soak: ${errors} errors`);
  if (driftPercent !== null && Math.abs(driftPercent) >= TARGETS.soakDriftPercent)
    misses.push(`${engine} soak: RSS drift ${driftPercent} %`);
  if (fdGrowth !== null && fdGrowth > TARGETS.soakFdGrowth) misses.push(`${engine} soak: open fds grew by ${fdGrowth}`);
  return figures;
}

/** Linux: the kernel's peak RSS (VmHWM) of a process restarts from its current RSS (see proc(5), clear_refs). */
function resetPeakRss(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

function peakRssBytes(pid: number): number {
  return statusKb(pid, 'VmHWM') * 1024;
}

function rssBytes(pid: number): number {
  return statusKb(pid, 'VmRSS') * 1024;
}

function statusKb(pid: number, field: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

function openFds(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function mb(bytes: number): number {
  return Math.round(bytes / 1024 / 102.4) / 10;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * Issue 12 point 4: one amount logged on a goal with 3,650 dates costs the same as on one with 30, within 2x
 * (bench/log-growth.ts starts a server of its own on a fresh database).
 */
async function benchLogGrowth(engine: Engine) {
  const figures = await measureLogGrowth({ engine });
  for (const withEntryId of [false, true]) {
    const rateAt = (goalDates: number) =>
      figures.find((figure) => figure.goalDates === goalDates && figure.withEntryId === withEntryId)!.rate;
    const ratio = round3(rateAt(3650) / rateAt(30));
    const label = `${engine} log one amount${withEntryId ? ' with entry_id' : ''}`;
    console.log(
      `${label}: ${rateAt(30).toFixed(0)}/s on 30 dates, ${rateAt(3650).toFixed(0)}/s on 3,650 dates: ` +
        `ratio ${ratio} (target >= ${TARGETS.logGrowthRatio})`,
    );
    if (ratio < TARGETS.logGrowthRatio) misses.push(`${label}: 3,650 dates at ${ratio} of 30 dates`);
  }
  const failures = figures.reduce((sum, figure) => sum + figure.failures, 0);
  if (failures > 0) misses.push(`${engine} log growth: ${failures} failed answers`);
  return figures;
}

async function main(): Promise<void> {
  try {
    for (const engine of ['sqlite', 'postgres'] as const) {
      if (flags.engine && flags.engine !== engine) continue;
      const database = await benchDatabase(engine);
      if (!database) continue;
      try {
        (results.engines as Record<string, unknown>)[engine] = await benchEngine(engine, database.url);
      } finally {
        await database.drop();
      }
      if (!SOAK_SECONDS) (results.logGrowth as Record<string, unknown>)[engine] = await benchLogGrowth(engine);
    }
  } catch (error) {
    console.error('bench: failed:', error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  }

  if (!flags['no-start-time'] && !SOAK_SECONDS) {
    try {
      const startTimes = await printStartTimes();
      if (startTimes) {
        results.startTime = startTimes;
        misses.push(...startTimeMisses(startTimes));
      }
    } catch (error) {
      console.error('bench: start time failed:', error instanceof Error ? error.message : error);
      process.exitCode = 1;
    }
  }

  results.misses = misses;
  const out =
    flags.out ??
    path.join(
      benchDir,
      'results',
      `${results.date as string}`.slice(0, 16).replace(':', '') + (SOAK_SECONDS ? '-soak' : '') + '.json',
    );
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nfigures written to ${path.relative(process.cwd(), out)}`);
  if (misses.length > 0) {
    console.error(`bench: ${misses.length} target(s) missed:\n  ${misses.join('\n  ')}`);
    process.exitCode = 1;
  }
}

await main();
