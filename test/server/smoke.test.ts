import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, PASSWORD } from '../support/app.js';

test('register with an invite, see me, log out, log in again', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('Anna@Example.com ', { name: ' Anna ' });
  const me = await anna.get('/api/me');
  assert.equal(me.status, 200);
  assert.deepEqual(
    { ...me.body, id: 0 },
    { ok: true, email: 'anna@example.com', id: 0, name: 'Anna', locale: 'en', is_admin: false },
  );
  assert.equal((await anna.post('/api/logout')).status, 200);
  assert.deepEqual((await anna.get('/api/me')).body, { ok: false });
  const login = await anna.post('/api/login', { email: 'ANNA@example.com', password: PASSWORD });
  assert.deepEqual(login.body, { ok: true, email: 'anna@example.com', name: 'Anna' });
  assert.equal((await anna.get('/api/me')).status, 200);
});
