import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY } from '../../../src/server/clock.js';
import { createTestApp } from '../../support/app.js';

test('the administrator lists all users ordered by id, registered in Unix seconds', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const start = steady.clock.now();
  await steady.register('anna@example.com', { name: 'Anna' });
  steady.clock.advance(DAY + 1500);
  // ADMIN_EMAIL is admin@example.com; case and spaces of the registration do not matter.
  const admin = await steady.register(' Admin@Example.COM ');

  const answer = await admin.get('/api/admin/users');
  assert.equal(answer.status, 200);
  const ids = answer.body.map((u: { id: number }) => u.id);
  assert.ok(ids[0] < ids[1]);
  assert.deepEqual(answer.body, [
    { id: ids[0], email: 'anna@example.com', username: 'Anna', registered: start / 1000 },
    // Registered 1.5 s into the second: whole seconds, rounded down.
    { id: ids[1], email: 'admin@example.com', username: '', registered: start / 1000 + 86_401 },
  ]);
});

test('any other logged-in user gets 403 forbidden', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const answer = await anna.get('/api/admin/users');
  assert.equal(answer.status, 403);
  assert.deepEqual(answer.body, { error: 'Only the administrator may list users', code: 'forbidden' });
});

test('without a session the answer is 401', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('admin@example.com');
  const answer = await steady.client().get('/api/admin/users');
  assert.equal(answer.status, 401);
  assert.deepEqual(answer.body, { error: 'Not logged in', code: 'unauthenticated' });
});

test('without ADMIN_EMAIL configured nobody is administrator', async (t) => {
  const steady = await createTestApp({ ADMIN_EMAIL: '' });
  t.after(() => steady.close());
  const admin = await steady.register('admin@example.com');
  const answer = await admin.get('/api/admin/users');
  assert.equal(answer.status, 403);
  assert.equal(answer.body.code, 'forbidden');
});
