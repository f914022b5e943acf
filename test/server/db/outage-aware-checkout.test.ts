/**
 * Which failed connection attempts fail every request waiting for a connection (decision 0153), and that a request
 * given up costs pg-pool nothing (decision 0174). The outage itself
 * is tested against a real PostgreSQL behind a gate (test/server/ops/database-outage.test.ts); a server that
 * refuses one connection with a SQLSTATE (53300 too many clients) cannot be made here without a second role, so
 * most tests here drive the checkout with a pool whose attempts the test settles. A process too starved to read its
 * socket before the connect deadline (decision 0183) is made with a busy wait against the real local PostgreSQL.
 */
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { test } from 'node:test';
import { sql } from 'kysely';
import type pg from 'pg';
import { DEFAULT_POOL_SIZE, parseDatabaseUrl } from '../../../src/server/config.js';
import { DATABASE_TIMEOUTS, openDatabase, outageAwareCheckout } from '../../../src/server/db/open.js';
import { createTestDatabase } from '../../support/database.js';

/** A pool whose `connect` calls wait until the test settles them, in order. */
function scriptedPool() {
  const attempts: Array<{ resolve: (client: pg.PoolClient) => void; reject: (error: unknown) => void }> = [];
  const pool = {
    connect: () => new Promise<pg.PoolClient>((resolve, reject) => attempts.push({ resolve, reject })),
  } as Pick<pg.Pool, 'connect'>;
  return { pool, attempts };
}

const client = (released: string[], name: string) =>
  ({ release: () => released.push(name) }) as unknown as pg.PoolClient;
const settled = (promise: Promise<unknown>) =>
  promise.then(
    () => 'connected',
    (error: { code?: string; message: string }) => error.code ?? error.message,
  );

test('an attempt that reached no server fails every waiting request at once; a late connection goes back', async () => {
  const { pool, attempts } = scriptedPool();
  const checkout = outageAwareCheckout(pool, DEFAULT_POOL_SIZE);
  const waiting = [checkout(), checkout(), checkout()].map(settled);
  attempts[0]!.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
  assert.deepEqual(await Promise.all(waiting), ['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
  // pg-pool still serves the given-up waiters later: what they get goes straight back.
  const released: string[] = [];
  attempts[1]!.resolve(client(released, 'late'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(released, ['late']);
});

test("a refusal the server gave (53300 too many clients) fails only its own request; the others wait for the pool's connections", async () => {
  const { pool, attempts } = scriptedPool();
  const checkout = outageAwareCheckout(pool, DEFAULT_POOL_SIZE);
  const waiting = [checkout(), checkout(), checkout()].map(settled);
  attempts[0]!.reject(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }));
  const released: string[] = [];
  attempts[1]!.resolve(client(released, 'second'));
  attempts[2]!.resolve(client(released, 'third'));
  assert.deepEqual(await Promise.all(waiting), ['53300', 'connected', 'connected']);
  assert.deepEqual(released, []);
  // And a new request right after is not failed fast: it makes its own attempt.
  const next = settled(checkout());
  attempts[3]!.resolve(client(released, 'fourth'));
  assert.equal(await next, 'connected');
});

test('an attempt that ran out of time while other connections served fails nobody: its request waits again (decision 0225)', async () => {
  const timedOut = () => new Error('timeout expired');
  const { pool, attempts } = scriptedPool();
  const checkout = outageAwareCheckout(pool, DEFAULT_POOL_SIZE);
  const first = checkout();
  const waiting = [checkout(), checkout()].map(settled);
  const released: string[] = [];
  attempts[0]!.resolve(client(released, 'serving'));
  // The first request's query is answered and its connection comes back whole, while the other attempts still run.
  (await first).release();
  attempts[1]!.reject(timedOut());
  attempts[2]!.reject(timedOut());
  await nextTurn();
  assert.equal(attempts.length, 5, 'each request asked again');
  attempts[3]!.resolve(client(released, 'again 1'));
  attempts[4]!.resolve(client(released, 'again 2'));
  assert.deepEqual(await Promise.all(waiting), ['connected', 'connected']);

  // With nothing served since the attempt began (a server that went silent), a timeout still fails every request.
  const silent = scriptedPool();
  const silentCheckout = outageAwareCheckout(silent.pool, DEFAULT_POOL_SIZE);
  const stuck = [silentCheckout(), silentCheckout()].map(settled);
  silent.attempts[0]!.reject(timedOut());
  assert.deepEqual(await Promise.all(stuck), ['timeout expired', 'timeout expired']);
});

test('requests beyond the pool wait in our queue: a given-up one never asks pg-pool for a connection', async () => {
  const { pool, attempts } = scriptedPool();
  const checkout = outageAwareCheckout(pool, 2);
  const waiting = Array.from({ length: 6 }, () => settled(checkout()));
  // Only as many attempts as the pool has places; the other four requests wait without one.
  assert.equal(attempts.length, 2);
  assert.equal(checkout.waiting(), 4);
  attempts[0]!.reject(Object.assign(new Error('timeout expired'), { code: 'ETIMEDOUT' }));
  assert.deepEqual(await Promise.all(waiting), Array(6).fill('ETIMEDOUT'));
  assert.equal(checkout.waiting(), 0);
  // The second attempt, already under way, ends later: its place is free again, and nobody is left to make another.
  attempts[1]!.reject(Object.assign(new Error('timeout expired'), { code: 'ETIMEDOUT' }));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(attempts.length, 2, 'given-up requests made attempts of their own');
});

test('a busy pool hands each released connection to the next request in our queue, in order, without a deadline', async () => {
  const { pool, attempts } = scriptedPool();
  const checkout = outageAwareCheckout(pool, 1);
  const released: string[] = [];
  const first = checkout();
  const second = checkout();
  const third = checkout();
  attempts[0]!.resolve(client(released, 'first'));
  const firstClient = await first;
  // The pool's one place is taken: the others have not asked pg-pool.
  assert.equal(attempts.length, 1);
  assert.equal(checkout.waiting(), 2);
  firstClient.release();
  assert.deepEqual(released, ['first']);
  assert.equal(attempts.length, 2);
  attempts[1]!.resolve(client(released, 'second'));
  (await second).release();
  assert.equal(attempts.length, 3);
  attempts[2]!.resolve(client(released, 'third'));
  (await third).release();
  assert.equal(checkout.waiting(), 0);
});

test('an event loop blocked past the connect deadline is no evidence of a dead server: the waiting requests are served', async () => {
  const database = await createTestDatabase('postgres');
  const handle = await openDatabase(parseDatabaseUrl(database.url));
  try {
    // More requests than the pool has places, on a pool with no connection yet: each place makes an attempt.
    const answers = Array.from({ length: 2 * DEFAULT_POOL_SIZE }, () => settled(sql`select 1`.execute(handle.db)));
    await nextTurn();
    assert.equal(handle.poolStats()!.total, DEFAULT_POOL_SIZE, 'the attempts have begun');
    // What a process starved of CPU (or busy with its own start) does to them: the deadline passes while nothing,
    // not the socket either, gets to run. The timer then runs first, before the answers already waiting are read.
    const blockedUntil = performance.now() + DATABASE_TIMEOUTS.connectMs + 500;
    while (performance.now() < blockedUntil);
    assert.deepEqual(await Promise.all(answers), Array(2 * DEFAULT_POOL_SIZE).fill('connected'));
  } finally {
    // Closed before the drop, which would otherwise wait for the pool's connections to go.
    await handle.close();
    await database.drop();
  }
});
