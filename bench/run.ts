// `npm run bench`: GET /api/goals (10 goals x 90 dates x 3 amounts) against a bare Fastify hello route.
// The server runs in a child process (bench/server.ts) so the load generator does not steal its CPU; both talk
// over loopback only. Fails (exit 1) when GET /api/goals reaches less than a quarter of the hello route's rate.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const TARGET_RATIO = 0.25;
const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
const MEASURE_SECONDS = 5;
const STARTUP_TIMEOUT_MS = 20_000;

interface ServerInfo {
  hello: string;
  goals: string;
  naive: string;
  cookie: string;
}

const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.ts');
const server = spawn(process.execPath, ['--import', 'tsx', serverScript], { stdio: ['pipe', 'pipe', 'inherit'] });

try {
  const info = await serverInfo();
  await checkAnswers(info);
  const headers = { cookie: info.cookie };
  const hello = await measure('bare Fastify hello route', info.hello, {});
  const goals = await measure('GET /api/goals (stored JSON spliced)', info.goals, headers);
  const naive = await measure('naive parse + stringify (comparison)', info.naive, headers);

  const ratio = goals / hello;
  console.log('');
  console.log(`GET /api/goals / hello:  ${(ratio * 100).toFixed(1)} % (target >= ${TARGET_RATIO * 100} %)`);
  console.log(`naive / hello:           ${((naive / hello) * 100).toFixed(1)} %`);
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
    return { type: response.headers.get('content-type'), body: (await response.json()) as Array<{ sets: object }> };
  };
  const goals = await fetchJson(info.goals);
  const naive = await fetchJson(info.naive);
  assert.equal(goals.type, 'application/json; charset=utf-8');
  assert.equal(goals.body.length, 10);
  assert.equal(Object.keys(goals.body[0]!.sets).length, 90);
  assert.deepEqual(goals.body, naive.body);
  const bytes = JSON.stringify(goals.body).length;
  console.log(`GET /api/goals answers ${goals.body.length} goals, ${bytes} bytes`);
}

/** Requests per second over MEASURE_SECONDS after a short warm-up; every answer must be a 2xx. */
async function measure(label: string, url: string, headers: Record<string, string>): Promise<number> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_SECONDS, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: MEASURE_SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const rate = result.requests.average;
  console.log(
    `${label.padEnd(40)} ${rate.toFixed(0).padStart(7)} req/s  (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms)`,
  );
  return rate;
}
