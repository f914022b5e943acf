import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import zlib from 'node:zlib';
import { createTestApp, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

// GET /api/goals answers compressed to clients that ask (decision 0119), on whichever engine TEST_DB names.
let steady: TestApp;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const CHROMIUM = 'gzip, deflate, br, zstd';

/** The list as the server sends it, with the cookies of `client` and the given `Accept-Encoding`. */
async function rawList(client: TestClient, acceptEncoding?: string) {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const answer = await steady.app.inject({
    method: 'GET',
    url: '/api/goals',
    headers: { cookie, ...(acceptEncoding !== undefined && { 'accept-encoding': acceptEncoding }) },
  });
  assert.equal(answer.statusCode, 200);
  assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(answer.headers.vary, 'accept-encoding', 'every form of the list says it varies');
  assert.equal(Number(answer.headers['content-length']), answer.rawPayload.length);
  return { encoding: answer.headers['content-encoding'], bytes: answer.rawPayload };
}

function decoded(answer: { encoding: unknown; bytes: Buffer }): string {
  if (answer.encoding === 'br') return zlib.brotliDecompressSync(answer.bytes).toString();
  if (answer.encoding === 'gzip') return zlib.gunzipSync(answer.bytes).toString();
  assert.equal(answer.encoding, undefined);
  return answer.bytes.toString();
}

/** 90 dates of three odd amounts: a list of about 2.5 kB. */
const ninetyDates = Object.fromEntries(
  Array.from({ length: 90 }, (_, day) => [
    new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10),
    [day + 0.5, 1e-7, -day - 1],
  ]),
);

test('the list travels compressed in the encoding the client prefers, as the same bytes', async () => {
  const anna = await steady.register('compressed-list@example.com');
  const goal = (await anna.post('/api/goals', { name: 'Liegestütze über den Tag' })).body as { id: string };
  assert.equal((await anna.patch(`/api/goals/${goal.id}`, { sets: ninetyDates })).status, 200);

  const plain = await rawList(anna);
  assert.equal(plain.encoding, undefined, 'a client that asks for nothing gets the text');
  assert.deepEqual((JSON.parse(plain.bytes.toString()) as Array<{ sets: object }>)[0]!.sets, ninetyDates);

  for (const [acceptEncoding, expected] of [
    [CHROMIUM, 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
  ] as const) {
    // Twice: the second answer comes from the cached form.
    for (const time of ['first', 'second']) {
      const answer = await rawList(anna, acceptEncoding);
      assert.equal(answer.encoding, expected, `${acceptEncoding}, ${time} time`);
      assert.equal(decoded(answer), plain.bytes.toString(), `${acceptEncoding}, ${time} time`);
      if (expected) assert.ok(answer.bytes.length < plain.bytes.length / 3, `${answer.bytes.length} bytes`);
    }
  }

  // A change makes a new list, and its compressed form is the new one, never the cached old one.
  await anna.post(`/api/goals/${goal.id}/sets/2026-01-02`, { amount: 42 });
  const changed = JSON.parse(decoded(await rawList(anna, CHROMIUM))) as Array<{ sets: Record<string, number[]> }>;
  assert.deepEqual(changed[0]!.sets['2026-01-02'], [1.5, 1e-7, -2, 42]);
  assert.equal(decoded(await rawList(anna, 'gzip')), decoded(await rawList(anna)));
});

test('a list under 1 kB is sent as it is, even to a client that asks for compression', async () => {
  const ben = await steady.register('small-list@example.com');
  await ben.post('/api/goals', { name: 'Water' });
  const answer = await rawList(ben, CHROMIUM);
  assert.equal(answer.encoding, undefined);
  assert.equal((JSON.parse(answer.bytes.toString()) as Array<{ name: string }>)[0]!.name, 'Water');
});
