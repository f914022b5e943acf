// The benchmark's server process (started by bench/run.ts, never on its own): the real app on the database named by
// BENCH_DATABASE_URL (a temporary SQLite file when unset), seeded through the API with the users of BENCH_SEED,
// plus a bare Fastify hello route in the same process as the yardstick and a /stats route for the figures the
// load generator cannot see (server CPU time, event-loop delay). Prints one JSON line with the URLs and the seeded
// users, then serves until its parent ends it.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../src/server/app.js';
import { systemClock } from '../src/server/clock.js';
import { loadConfig } from '../src/server/config.js';
import { createInvite } from '../src/server/invites/service.js';
import { openServices } from '../src/server/services.js';
import {
  BENCH_PASSWORD,
  benchSets,
  cpuMicros,
  type SeededUser,
  type SeedGroup,
  type ServerInfo,
  type ServerStats,
} from './shared.js';

const ORIGIN = 'http://127.0.0.1';

const seed = JSON.parse(process.env.BENCH_SEED ?? '[]') as SeedGroup[];
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'steady-bench-'));
const config = loadConfig({
  ...process.env,
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? `sqlite:${path.join(dataDir, 'steady.db')}`,
  DATA_DIR: dataDir,
  BASE_URL: ORIGIN,
  LOG_LEVEL: 'silent',
  // The login figure comes from many client addresses (X-Forwarded-For), as real logins do: one address is
  // throttled after ten attempts.
  TRUST_PROXY: 'loopback',
});
// No SMTP_URL and no SECRET_KEY: mails go to the temporary outbox and the key file is made there, as on a first
// start.
const services = await openServices(config, {
  clock: systemClock,
  log: pino({ level: 'silent' }),
  webRoot: path.join(dataDir, 'no-web-build'),
});
const { deps } = services;
const app = await buildApp(deps);

const users: SeededUser[] = [];
for (const [group, kind] of seed.entries()) {
  for (let u = 0; u < kind.users; u++)
    // On PostgreSQL every server of one run shares the run's database: the process id keeps the addresses apart.
    users.push(await seedUser(`p${process.pid}g${group}u${u}@example.com`, kind, group));
}

const hello = Fastify({ logger: false });
hello.get('/', async () => ({ hello: 'world' }));
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
// CPU time and memory of this process: run.ts reads them around each round; CPU per request is a figure a busy
// machine distorts far less than requests per second.
hello.get('/stats', async (): Promise<ServerStats> => {
  const memory = process.memoryUsage();
  return {
    cpuMicros: cpuMicros(),
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    external: memory.external,
    arrayBuffers: memory.arrayBuffers,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
  };
});
hello.post('/stats/reset', async () => {
  loopDelay.reset();
  return { ok: true };
});

const appAddress = await app.listen({ host: '127.0.0.1', port: 0 });
const helloAddress = await hello.listen({ host: '127.0.0.1', port: 0 });
const info: ServerInfo = {
  pid: process.pid,
  hello: `${helloAddress}/`,
  stats: `${helloAddress}/stats`,
  app: appAddress,
  database: config.database.kind === 'sqlite' ? `sqlite:${config.database.file}` : config.database.url,
  origin: ORIGIN,
  password: BENCH_PASSWORD,
  users,
};
console.log(JSON.stringify(info));

const shutdown = async () => {
  await Promise.allSettled([app.close(), hello.close()]);
  await services.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
// The parent closes our stdin when it is done (or dies); either way this process must not outlive it.
process.stdin.on('end', () => void shutdown());
process.stdin.resume();

/** Registers a user through the API, gives them the group's goals, and returns their session cookie and goals. */
async function seedUser(email: string, kind: SeedGroup, group: number): Promise<SeededUser> {
  const { token } = await createInvite(deps, null, null);
  const registered = await app.inject({
    method: 'POST',
    url: '/api/register',
    headers: { origin: ORIGIN },
    payload: { email, password: BENCH_PASSWORD, token, name: 'Bench' },
  });
  if (registered.statusCode !== 200) throw new Error(`register: ${registered.statusCode} ${registered.body}`);
  const session = registered.cookies.find((c) => c.name === 'steady_session');
  if (!session) throw new Error('register set no session cookie');
  const cookie = `${session.name}=${session.value}`;

  const goalIds: string[] = [];
  for (let g = 0; g < kind.goals; g++) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/goals',
      headers: { origin: ORIGIN, cookie },
      payload: {
        name: `Goal ${g + 1} – Übung 💪`,
        unit: 'Wiederholungen',
        daily: 50,
        days: kind.dates,
        start: '2016-01-01',
        sets: benchSets(kind.dates, kind.amountsPerDate, g),
      },
    });
    if (created.statusCode !== 200) throw new Error(`create goal: ${created.statusCode} ${created.body}`);
    goalIds.push((JSON.parse(created.body) as { id: string }).id);
  }
  return { email, cookie, goalIds, group };
}
