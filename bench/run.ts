// Then bench/start-time.ts prints how fast the server starts.
// `npm run bench`: GET /api/goals of the user bench/server.ts seeds (10 goals x 90 dates x 3 amounts) against a
// bare Fastify hello route.
// The server runs in a child process (bench/server.ts) so the load generator does not steal its event loop; both
// talk over loopback only. Fails (exit 1) when GET /api/goals reaches less than a quarter of the hello route's
// rate. The routes are measured in alternating short rounds, so a busy machine slows all of them alike instead
// of whichever happened to run while something else was busy.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { printStartTimes } from './start-time.js';

const TARGET_RATIO = 0.25;
const CONNECTIONS = 10;
const ROUNDS = 5;
const ROUND_SECONDS = 1;
const STARTUP_TIMEOUT_MS = 20_000;

interface ServerInfo {
  hello: string;
  cpu: string;
  me: string;
  goals: string;
  naive: string;
  uncached: string;
  cookie: string;
  /** What the server seeded: the goal list must show exactly this. */
  seed: { goals: number; dates: number; amountsPerDate: number };
}

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
  /** Requests per second of each round. */
  rates: number[];
  /** Server CPU time per request (µs) of each round. */
  cpu: number[];
}

const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.ts');
const server = spawn(process.execPath, ['--import', 'tsx', serverScript], { stdio: ['pipe', 'pipe', 'inherit'] });

try {
  const info = await serverInfo();
  await checkAnswers(info);
  const session = { cookie: info.cookie };
  const hello: Target = { label: 'bare Fastify hello route', url: info.hello, headers: {}, rates: [], cpu: [] };
  // The stack's own cost (cookies, session lookup, security headers): a floor for any private route.
  const me: Target = {
    label: 'GET /api/me (session, tiny answer)',
    url: info.me,
    headers: session,
    rates: [],
    cpu: [],
  };
  const goals: Target = {
    label: 'GET /api/goals (cached, version read)',
    url: info.goals,
    headers: session,
    rates: [],
    cpu: [],
  };
  // What the first read after each change costs: the goals read and spliced, no cache.
  const uncached: Target = {
    label: 'spliced, without the cache (comparison)',
    url: info.uncached,
    headers: session,
    rates: [],
    cpu: [],
  };
  const naive: Target = {
    label: 'naive parse + stringify (comparison)',
    url: info.naive,
    headers: session,
    rates: [],
    cpu: [],
  };
  const targets = [hello, me, goals, uncached, naive];

  for (const target of targets) await run(target, info.cpu); // warm-up, not counted
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const { rate, cpuMicros } = await run(target, info.cpu);
      target.rates.push(rate);
      target.cpu.push(cpuMicros);
    }
  }

  console.log(`${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s per route:`);
  for (const target of targets) {
    const cpu = `${mean(target.cpu).toFixed(0).padStart(5)} µs server CPU per request`;
    console.log(`${target.label.padEnd(40)} ${mean(target.rates).toFixed(0).padStart(7)} req/s  ${cpu}`);
  }
  const ratio = mean(goals.rates) / mean(hello.rates);
  const perRound = goals.rates.map((rate, i) => `${((rate / hello.rates[i]!) * 100).toFixed(0)} %`).join(', ');
  console.log('');
  console.log(
    `GET /api/goals / hello:  ${(ratio * 100).toFixed(1)} % (target >= ${TARGET_RATIO * 100} %; rounds: ${perRound})`,
  );
  console.log(`GET /api/me / hello:     ${((mean(me.rates) / mean(hello.rates)) * 100).toFixed(1)} %`);
  console.log(`uncached / hello:        ${((mean(uncached.rates) / mean(hello.rates)) * 100).toFixed(1)} %`);
  console.log(`naive / hello:           ${((mean(naive.rates) / mean(hello.rates)) * 100).toFixed(1)} %`);
  const cpuRatio = mean(hello.cpu) / mean(goals.cpu);
  console.log(
    `by server CPU per request, GET /api/goals runs at ${(cpuRatio * 100).toFixed(1)} % of the hello route's speed`,
  );
  if (ratio < TARGET_RATIO) {
    console.error(`bench: FAILED, GET /api/goals is below ${TARGET_RATIO * 100} % of the hello route`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error('bench: failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  server.stdin?.end();
  server.kill('SIGTERM');
}
await printStartTimes().catch((error: unknown) => {
  console.error('bench: start time failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

/** The first stdout line of the server process. */
async function serverInfo(): Promise<ServerInfo> {
  const lines = createInterface({ input: server.stdout! });
  const timeout = setTimeout(() => server.kill('SIGTERM'), STARTUP_TIMEOUT_MS);
  try {
    for await (const line of lines) {
      if (line.startsWith('{')) return JSON.parse(line) as ServerInfo;
    }
    throw new Error('the benchmark server exited before it was ready');
  } finally {
    clearTimeout(timeout);
  }
}

/** A fast wrong answer is not a result: both goal routes must give the seeded goals, and the same ones. */
async function checkAnswers(info: ServerInfo): Promise<void> {
  const fetchJson = async (url: string) => {
    const response = await fetch(url, { headers: { cookie: info.cookie } });
    assert.equal(response.status, 200, url);
    const body = (await response.json()) as Array<{ sets: Record<string, number[]> }>;
    return { type: response.headers.get('content-type'), body };
  };
  const goals = await fetchJson(info.goals);
  const naive = await fetchJson(info.naive);
  const uncached = await fetchJson(info.uncached);
  assert.equal(goals.type, 'application/json; charset=utf-8');
  assert.deepEqual(uncached.body, goals.body);
  assert.equal(goals.body.length, info.seed.goals);
  for (const goal of goals.body) {
    const days = Object.values(goal.sets);
    assert.equal(days.length, info.seed.dates);
    assert.ok(days.every((amounts) => amounts.length === info.seed.amountsPerDate));
  }
  assert.deepEqual(goals.body, naive.body);
  console.log(`GET /api/goals answers ${goals.body.length} goals, ${JSON.stringify(goals.body).length} bytes`);
}

/** One short run: requests per second and server CPU per request; every answer must be a 2xx. */
async function run(target: Target, cpuUrl: string): Promise<{ rate: number; cpuMicros: number }> {
  const cpuBefore = await serverCpuMicros(cpuUrl);
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: ROUND_SECONDS,
    headers: target.headers,
  });
  const cpuAfter = await serverCpuMicros(cpuUrl);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${target.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  const requests = result.requests.total;
  return { rate: requests / ROUND_SECONDS, cpuMicros: (cpuAfter - cpuBefore) / Math.max(1, requests) };
}

async function serverCpuMicros(url: string): Promise<number> {
  const response = await fetch(url);
  return ((await response.json()) as { micros: number }).micros;
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
