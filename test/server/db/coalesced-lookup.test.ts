import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coalescedLookup } from '../../../src/server/db/coalesced-lookup.js';

/** A lookup of squares that records the keys of every call. */
function squares(maxKeys = 100) {
  const calls: number[][] = [];
  const lookup = coalescedLookup(async (keys: number[]) => {
    calls.push(keys);
    return new Map(keys.filter((key) => key >= 0).map((key) => [key, key * key]));
  }, maxKeys);
  return { calls, lookup };
}

test('keys asked for in one turn are looked up in one call, each once, and each caller gets its own value', async () => {
  const { calls, lookup } = squares();
  const answers = await Promise.all([lookup(2), lookup(3), lookup(2), lookup(-1)]);
  assert.deepEqual(answers, [4, 9, 4, undefined]);
  assert.deepEqual(calls, [[2, 3, -1]]);
});

test('a key asked for after a batch has started its lookup goes into the next batch', async () => {
  const { calls, lookup } = squares();
  const first = lookup(1);
  await new Promise((resolve) => setImmediate(resolve));
  const second = lookup(5);
  assert.deepEqual(await Promise.all([first, second]), [1, 25]);
  assert.deepEqual(calls, [[1], [5]]);
});

test('a batch holds at most maxKeys keys; later keys of the same turn share the next call', async () => {
  const { calls, lookup } = squares(2);
  assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map(lookup)), [1, 4, 9, 16, 25]);
  assert.deepEqual(calls, [[1, 2], [3, 4], [5]]);
});

test('a failed lookup fails every caller of its batch, and the next batch looks up afresh', async () => {
  let failing = true;
  const lookup = coalescedLookup(async (keys: string[]) => {
    if (failing) throw new Error('database unavailable');
    return new Map(keys.map((key) => [key, key.toUpperCase()]));
  }, 100);
  const outcomes = await Promise.allSettled([lookup('a'), lookup('b'), lookup('a')]);
  assert.deepEqual(
    outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error).message : outcome.value)),
    ['database unavailable', 'database unavailable', 'database unavailable'],
  );
  failing = false;
  assert.deepEqual(await Promise.all([lookup('a'), lookup('b')]), ['A', 'B']);
});
