import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { BASE_URL, createTestApp } from '../../support/app.js';
import { startPartialPost } from '../../support/partial-post.js';

// An import holds its whole body as objects until its rows are in, so a process takes one at a time, and a waiting
// import's body is not read until the one before has its answer (decision 0116).

/** An import whose first half is sent now. */
const startUpload = (port: number, cookie: string, payload: string) =>
  startPartialPost(port, '/api/import', { cookie, origin: BASE_URL }, payload);

const importOf = (name: string) =>
  JSON.stringify({
    format: 'steady-export',
    version: 1,
    goals: [{ name, unit: 'x', daily: 1, days: 30, start: '2026-01-01 00:00:00', sets: { '2026-01-01': [1] } }],
  });

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const timeout = new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms));
  return (await Promise.race([promise.then(() => 'settled'), timeout])) === 'settled';
}

test('imports run one at a time: a second waits for the first answer, and a dropped upload frees its place', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const cookie = [...anna.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  await steady.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = steady.app.server.address() as AddressInfo;

  const first = startUpload(port, cookie, importOf('First'));
  // The first holds the place while its body is on the way; the second is complete but must wait.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const second = startUpload(port, cookie, importOf('Second'));
  second.finish();
  assert.equal(await settlesWithin(second.response, 500), false, 'the second import was answered beside the first');

  first.finish();
  assert.equal((await first.response).status, 200);
  assert.equal((await second.response).status, 200);
  const names = (await anna.get('/api/goals')).body.map((goal: { name: string }) => goal.name);
  assert.deepEqual(names, ['First', 'Second']);

  // A client that goes away mid-upload gives the place back: the next import is answered at once.
  const dropped = startUpload(port, cookie, importOf('Dropped'));
  await new Promise((resolve) => setTimeout(resolve, 100));
  dropped.abort();
  await dropped.response.catch(() => undefined);
  const third = startUpload(port, cookie, importOf('Third'));
  third.finish();
  assert.equal(await settlesWithin(third.response, 5_000), true, 'the dropped upload kept the place');
  assert.equal((await third.response).status, 200);
  assert.deepEqual(
    (await anna.get('/api/goals')).body.map((goal: { name: string }) => goal.name),
    ['First', 'Second', 'Third'],
  );
});
