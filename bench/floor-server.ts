// The floor's server process (started by bench/run.ts beside bench/server.ts, never on its own; decision 0118): a
// bare Fastify answering the app's goal list, log and PATCH requests with nothing but the statements (bench/floor-store.ts),
// on the app's database. A process of its own, so the app's memory figure stays the app's. Reads the app's info
// line (BENCH_APP_INFO), takes each seeded user's goal list from the app once, prints one JSON line with its address
// and the /stats route, then serves until its parent ends it.
import Fastify from 'fastify';
import type { GoalSets } from '../src/common/goal.js';
import { parseDatabaseUrl } from '../src/server/config.js';
import { CompressibleBody, encodingFor, sendCompressible } from '../src/server/http/compression.js';
import { openFloorStore } from './floor-store.js';
import { cpuMicros, type FloorInfo, type ServerInfo, type ServerStats } from './shared.js';

const appInfo = JSON.parse(process.env.BENCH_APP_INFO ?? 'null') as ServerInfo | null;
if (!appInfo) throw new Error('the floor needs the app info of a bench server (BENCH_APP_INFO)');
// The pool size is the app's default (DATABASE_POOL_SIZE applies to both).
const store = openFloorStore(parseDatabaseUrl(appInfo.database, Number(process.env.DATABASE_POOL_SIZE) || undefined));

/** The session token of a Cookie header that holds only the session cookie, as the bench sends it. */
const userOf = (cookie: string | undefined) => store.sessionUser((cookie ?? '').slice((cookie ?? '').indexOf('=') + 1));

// Each user's real list bytes: the floor of a cached list is the session lookup and sending them, compressed as the
// app sends them to a client that asks (decision 0119).
const lists = new Map<number, CompressibleBody>();
for (const user of appInfo.users) {
  const found = await userOf(user.cookie);
  const list = await fetch(`${appInfo.app}/api/goals`, { headers: { cookie: user.cookie } });
  if (!found || list.status !== 200) throw new Error(`floor: no session or list for ${user.email}`);
  lists.set(found.id, new CompressibleBody(Buffer.from(await list.arrayBuffer())));
}

const app = Fastify({ logger: false });
app.get('/api/goals', async (request, reply) => {
  const user = await userOf(request.headers.cookie);
  if (!user) return reply.code(401).send({ error: 'unauthorized' });
  const list = lists.get(user.id)!;
  return sendCompressible(reply.type('application/json; charset=utf-8'), list, encodingFor(request, list.body));
});
app.post<{ Params: { id: string; date: string }; Body: { amount: number } }>(
  '/api/goals/:id/sets/:date',
  async (request, reply) => {
    const user = await userOf(request.headers.cookie);
    if (!user) return reply.code(401).send({ error: 'unauthorized' });
    const amounts = await store.logAmount(user.id, Number(request.params.id), request.params.date, request.body.amount);
    if (!amounts) return reply.code(404).send({ error: 'not_found' });
    return { ok: true, date: request.params.date, amounts };
  },
);
app.patch<{ Params: { id: string }; Body: { sets: GoalSets } }>('/api/goals/:id', async (request, reply) => {
  const user = await userOf(request.headers.cookie);
  if (!user) return reply.code(401).send({ error: 'unauthorized' });
  if (!(await store.replaceSets(user.id, Number(request.params.id), request.body.sets)))
    return reply.code(404).send({ error: 'not_found' });
  return { ok: true };
});
app.get('/stats', async (): Promise<Pick<ServerStats, 'cpuMicros' | 'rss'>> => ({
  cpuMicros: cpuMicros(),
  rss: process.memoryUsage.rss(),
}));

const address = await app.listen({ host: '127.0.0.1', port: 0 });
const info: FloorInfo = { pid: process.pid, url: address, stats: `${address}/stats` };
console.log(JSON.stringify(info));

// The parent ends its stdin and sends SIGTERM: both arrive, the pool may be ended once.
let closing: Promise<void> | undefined;
const shutdown = () =>
  (closing ??= (async () => {
    await app.close();
    await store.close();
    process.exit(0);
  })());
process.on('SIGTERM', () => void shutdown());
process.stdin.on('end', () => void shutdown());
process.stdin.resume();
