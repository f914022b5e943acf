// The benchmark's server process (started by bench/run.ts, never on its own): the real app on a temporary SQLite
// file with one seeded user, plus a bare Fastify hello route as the yardstick. Prints one JSON line with the URLs,
// the session cookie and the seed, then serves until its parent ends it.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../src/server/app.js';
import { systemClock } from '../src/server/clock.js';
import { loadConfig } from '../src/server/config.js';
import { goalListJson } from '../src/server/goals/serialize.js';
import { listEntries, listGoals } from '../src/server/goals/store.js';
import { listGoalsForExport } from '../src/server/data/store.js';
import { createInvite } from '../src/server/invites/service.js';
import { openServices } from '../src/server/services.js';

/** What the seeded user gets; printed in the info line so run.ts checks the answers against it. */
const SEED = { goals: 10, dates: 90, amountsPerDate: 3 };
const ORIGIN = 'http://127.0.0.1';

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'steady-bench-'));
const config = loadConfig({
  DATABASE_URL: `sqlite:${path.join(dataDir, 'steady.db')}`,
  DATA_DIR: dataDir,
  BASE_URL: ORIGIN,
  LOG_LEVEL: 'silent',
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

// The approach the real route avoids, for comparison: build every goal's sets as objects and let Fastify
// stringify it all.
app.get('/api/bench/naive-goals', async (request) => {
  const goals = await listGoalsForExport(deps.db, request.user!.id);
  return goals.map((goal) => ({
    id: String(goal.id),
    name: goal.name,
    unit: goal.unit,
    daily: goal.daily,
    days: goal.days,
    start: goal.start,
    sets: goal.sets,
  }));
});

// The real serialisation without the cache: what the first list after each change costs.
app.get('/api/bench/uncached-goals', async (request, reply) => {
  const userId = request.user!.id;
  const goals = await listGoals(deps.db, userId);
  return reply.type('application/json; charset=utf-8').send(goalListJson(goals, await listEntries(deps.db, userId)));
});

const cookie = await seedUser();
const hello = Fastify({ logger: false });
hello.get('/', async () => ({ hello: 'world' }));
// CPU time this process has used, in microseconds: run.ts reads it around each round to get CPU per request, a
// figure a busy machine distorts far less than requests per second.
hello.get('/cpu', async () => {
  const usage = process.cpuUsage();
  return { micros: usage.user + usage.system };
});

const appAddress = await app.listen({ host: '127.0.0.1', port: 0 });
const helloAddress = await hello.listen({ host: '127.0.0.1', port: 0 });
console.log(
  JSON.stringify({
    hello: `${helloAddress}/`,
    cpu: `${helloAddress}/cpu`,
    me: `${appAddress}/api/me`,
    goals: `${appAddress}/api/goals`,
    naive: `${appAddress}/api/bench/naive-goals`,
    uncached: `${appAddress}/api/bench/uncached-goals`,
    cookie,
    seed: SEED,
  }),
);

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

/** Registers a user through the API, gives them SEED's goals, and returns their session cookie. */
async function seedUser(): Promise<string> {
  const { token } = await createInvite(deps, null, null);
  const registered = await app.inject({
    method: 'POST',
    url: '/api/register',
    headers: { origin: ORIGIN },
    payload: { email: 'bench@example.com', password: 'bench password', token, name: 'Bench' },
  });
  if (registered.statusCode !== 200) throw new Error(`register: ${registered.statusCode} ${registered.body}`);
  const session = registered.cookies.find((c) => c.name === 'steady_session');
  if (!session) throw new Error('register set no session cookie');
  const cookieHeader = `${session.name}=${session.value}`;

  for (let g = 0; g < SEED.goals; g++) {
    const sets: Record<string, number[]> = {};
    for (let d = 0; d < SEED.dates; d++) {
      const date = new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);
      sets[date] = Array.from({ length: SEED.amountsPerDate }, (_, a) => 5 + ((g + d + a) % 20) + (a === 2 ? 0.5 : 0));
    }
    const created = await app.inject({
      method: 'POST',
      url: '/api/goals',
      headers: { origin: ORIGIN, cookie: cookieHeader },
      payload: {
        name: `Goal ${g + 1} – Übung 💪`,
        unit: 'Wiederholungen',
        daily: 50,
        days: 90,
        start: '2026-01-01',
        sets,
      },
    });
    if (created.statusCode !== 200) throw new Error(`create goal: ${created.statusCode} ${created.body}`);
  }
  return cookieHeader;
}
