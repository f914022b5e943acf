/**
 * Which failed connection attempts fail every request waiting for a connection (decision 0153). The outage itself
 * is tested against a real PostgreSQL behind a gate (test/server/ops/database-outage.test.ts); a server that
 * refuses one connection with a SQLSTATE (53300 too many clients) cannot be made here without a second role, so
 * this drives the checkout with a pool whose attempts the test settles.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type pg from 'pg';
import { outageAwareCheckout } from '../../../src/server/db/open.js';

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
  const checkout = outageAwareCheckout(pool);
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
  const checkout = outageAwareCheckout(pool);
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
