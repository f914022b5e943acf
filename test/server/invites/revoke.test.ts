import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, MINUTE } from '../../../src/server/clock.js';
import { createTestApp, PASSWORD } from '../../support/app.js';

test('POST /api/invites/revoke ends a pending invite now: listed as expired with url null, and it cannot register', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const { url } = (await anna.post('/api/invite', { note: 'for Ben' })).body;
  const { url: other } = (await anna.post('/api/invite', { note: 'for Carl' })).body;
  steady.clock.advance(5 * MINUTE);

  const revoked = await anna.post('/api/invites/revoke', { url });
  assert.equal(revoked.status, 200, revoked.text);
  assert.deepEqual(revoked.body, { ok: true });

  const list = (await anna.get('/api/invites')).body;
  const ben = list.find((invite: { note: string }) => invite.note === 'for Ben');
  assert.deepEqual(ben, {
    url: null,
    note: 'for Ben',
    status: 'expired',
    created_at: '2026-01-15T09:00:00.000Z',
    expires_at: '2026-01-15T09:05:00.000Z',
    used_at: null,
    used_by_email: null,
  });
  // The other invite is untouched.
  assert.equal(list.find((invite: { note: string }) => invite.note === 'for Carl').url, other);

  const token = new URL(url).searchParams.get('invite');
  const register = await steady.client().post('/api/register', { email: 'ben@example.com', password: PASSWORD, token });
  assert.equal(register.status, 400);
  assert.equal(register.body.code, 'invite_expired');
  // Revoking twice finds no pending invite.
  assert.equal((await anna.post('/api/invites/revoke', { url })).status, 404);
});

test("only the creator's own pending invites can be revoked; anything else is 404 invite_not_found and changes nothing", async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const mallory = await steady.register('mallory@example.com');
  const { url } = (await anna.post('/api/invite', {})).body;
  const { url: used } = (await anna.post('/api/invite', {})).body;
  const { url: expired } = (await anna.post('/api/invite', {})).body;
  const usedToken = new URL(used).searchParams.get('invite');
  assert.equal(
    (await steady.client().post('/api/register', { email: 'ben@example.com', password: PASSWORD, token: usedToken }))
      .status,
    200,
  );

  for (const [client, target] of [
    [mallory, url],
    [anna, used],
    [anna, 'http://steady.test/?invite=' + '0'.repeat(64)],
    [anna, 'not a url'],
  ] as const) {
    const answer = await client.post('/api/invites/revoke', { url: target });
    assert.equal(answer.status, 404, `${target}: ${answer.text}`);
    assert.deepEqual(answer.body, {
      error: 'No pending invite of yours has this link',
      code: 'invite_not_found',
      field: 'url',
    });
  }
  steady.clock.advance(8 * DAY);
  assert.equal((await anna.post('/api/invites/revoke', { url: expired })).status, 404);
  assert.equal((await anna.post('/api/invites/revoke', { url: '' })).body.code, 'missing_field');
  assert.equal((await steady.client().post('/api/invites/revoke', { url })).status, 401);

  // Mallory's attempt left Anna's invite usable until it expired on its own.
  steady.clock.advance(-8 * DAY);
  const token = new URL(url).searchParams.get('invite');
  assert.equal(
    (await steady.client().post('/api/register', { email: 'carl@example.com', password: PASSWORD, token })).status,
    200,
  );
});
