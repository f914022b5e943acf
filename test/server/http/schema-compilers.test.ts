import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../../support/app.js';

// The schema compilers load in the background while the app starts (decision 0059). This file runs in a process of
// its own, so its first request is the process's first: it must be validated and serialized like any later one,
// never answered 500 because the compilers were not there yet.
test('the first requests of a fresh process are validated and serialized by the contract', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const client = steady.client();
  const [invalid, me] = await Promise.all([
    client.post('/api/login', { email: 1, password: 'x' }),
    client.get('/api/me'),
  ]);
  assert.equal(invalid.status, 400);
  assert.equal(invalid.body.code, 'invalid_input');
  assert.equal(me.status, 401);
  assert.deepEqual(me.body, { ok: false });
});
