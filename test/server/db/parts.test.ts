import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inParts } from '../../../src/server/db/parts.js';

test('items come in consecutive parts of at most the size, in order', () => {
  assert.deepEqual(inParts([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  assert.deepEqual(inParts([1, 2, 3, 4], 2), [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual(inParts(['a'], 500), [['a']]);
  assert.deepEqual(inParts([], 3), []);
});

test('a part size below one or not a whole number is refused, not looped on forever', () => {
  for (const size of [0, -1, 0.5, Number.NaN]) assert.throws(() => inParts([1], size), RangeError);
});
