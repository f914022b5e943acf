import assert from 'node:assert/strict';
import { register } from 'node:module';
import { test } from 'node:test';

// Registered before the app's modules load (they are imported below, after this line has run).
register('./fixtures/slow-schema-compilers.mjs', import.meta.url);
const { createTestApp } = await import('../../support/app.js');
const { schemaCompilersLoaded } = await import('../../../src/server/http/lazy-schema-compilers.js');

// The schema compilers load in the background while the app starts (decision 0059). This file runs in a process of
// its own, and a module hook makes them load a second late, so its first requests surely arrive before them: they
// must wait and be validated and serialized like any later one, never answered 500.
test('the first requests of a fresh process are validated and serialized by the contract', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  assert.equal(schemaCompilersLoaded(), false, 'the compilers are still loading when the first requests arrive');
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
