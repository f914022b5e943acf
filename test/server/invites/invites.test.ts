import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, MINUTE } from '../../../src/server/clock.js';
import { BASE_URL, createTestApp, PASSWORD } from '../../support/app.js';

const INVITE_URL = new RegExp(`^${BASE_URL.replace(/\./g, '\\.')}/\\?invite=([0-9a-f]{64})$`);

function tokenOf(url: string): string {
  const match = INVITE_URL.exec(url);
  assert.ok(match, `not an invite URL: ${url}`);
  return match[1]!;
}

test('POST /api/invite answers the link; GET /api/invites lists it as pending with ISO timestamps', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');

  const created = await anna.post('/api/invite', { note: '  for Ben  ' });
  assert.equal(created.status, 200);
  assert.deepEqual(Object.keys(created.body), ['url']);
  tokenOf(created.body.url);

  const list = await anna.get('/api/invites');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, [
    {
      url: created.body.url,
      note: 'for Ben',
      status: 'pending',
      created_at: '2026-01-15T09:00:00.000Z',
      expires_at: '2026-01-22T09:00:00.000Z',
      used_at: null,
      used_by_email: null,
    },
  ]);
});

test('the note is optional: missing, empty, blank or no body at all store null', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');

  assert.equal((await anna.post('/api/invite', {})).status, 200);
  assert.equal((await anna.post('/api/invite', { note: '' })).status, 200);
  assert.equal((await anna.post('/api/invite', { note: ' \t ' })).status, 200);
  assert.equal((await anna.post('/api/invite')).status, 200);
  const list = await anna.get('/api/invites');
  assert.deepEqual(
    list.body.map((invite: { note: unknown }) => invite.note),
    [null, null, null, null],
  );
});

test('a note longer than the limit is refused; exactly the limit (after trimming) is kept', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');

  const tooLong = await anna.post('/api/invite', { note: 'x'.repeat(501) });
  assert.equal(tooLong.status, 400);
  assert.deepEqual(tooLong.body, {
    error: 'note must have at most 500 characters',
    code: 'note_too_long',
    field: 'note',
  });

  const longest = 'ü'.repeat(500);
  assert.equal((await anna.post('/api/invite', { note: `  ${longest}  ` })).status, 200);
  assert.equal((await anna.get('/api/invites')).body[0].note, longest);

  const wrongType = await anna.post('/api/invite', { note: 5 });
  assert.equal(wrongType.status, 400);
  assert.equal(wrongType.body.code, 'invalid_input');
  assert.equal((await anna.get('/api/invites')).body.length, 1);
});

test("invites list newest first and only the caller's own", async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const ben = await steady.register('ben@example.com');

  await anna.post('/api/invite', { note: 'first' });
  steady.clock.advance(MINUTE);
  await anna.post('/api/invite', { note: 'second' });
  await ben.post('/api/invite', { note: 'ben' });
  // Same millisecond: creation order still decides.
  await anna.post('/api/invite', { note: 'third' });

  const notes = (await anna.get('/api/invites')).body.map((invite: { note: string }) => invite.note);
  assert.deepEqual(notes, ['third', 'second', 'first']);
  assert.deepEqual(
    (await ben.get('/api/invites')).body.map((invite: { note: string }) => invite.note),
    ['ben'],
  );
  const fresh = await steady.register('cleo@example.com');
  assert.deepEqual((await fresh.get('/api/invites')).body, []);
});

test("a used invite shows used_at and the new user's e-mail, no url, and cannot be used again", async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const { url } = (await anna.post('/api/invite', {})).body;

  steady.clock.advance(2 * DAY);
  const ben = steady.client();
  const registered = await ben.post('/api/register', {
    email: ' Ben@Example.com',
    password: PASSWORD,
    token: tokenOf(url),
  });
  assert.equal(registered.status, 200);

  assert.deepEqual((await anna.get('/api/invites')).body, [
    {
      url: null,
      note: null,
      status: 'used',
      created_at: '2026-01-15T09:00:00.000Z',
      expires_at: '2026-01-22T09:00:00.000Z',
      used_at: '2026-01-17T09:00:00.000Z',
      used_by_email: 'ben@example.com',
    },
  ]);

  const again = await steady
    .client()
    .post('/api/register', { email: 'cleo@example.com', password: PASSWORD, token: tokenOf(url) });
  assert.equal(again.status, 400);
  assert.equal(again.body.code, 'invite_used');

  // Used stays used after the expiry date has passed.
  steady.clock.advance(6 * DAY);
  const later = await anna.get('/api/invites');
  assert.equal(later.status, 200);
  assert.equal(later.body[0].status, 'used');
});

test('an invite expires exactly 7 days after creation: url null, registration refused', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const { url } = (await anna.post('/api/invite', { note: 'late' })).body;

  steady.clock.advance(7 * DAY - 1);
  assert.equal((await anna.get('/api/invites')).body[0].status, 'pending');
  assert.equal((await anna.get('/api/invites')).body[0].url, url);

  steady.clock.advance(1);
  assert.deepEqual((await anna.get('/api/invites')).body, [
    {
      url: null,
      note: 'late',
      status: 'expired',
      created_at: '2026-01-15T09:00:00.000Z',
      expires_at: '2026-01-22T09:00:00.000Z',
      used_at: null,
      used_by_email: null,
    },
  ]);
  const late = await steady
    .client()
    .post('/api/register', { email: 'ben@example.com', password: PASSWORD, token: tokenOf(url) });
  assert.equal(late.status, 400);
  assert.deepEqual(late.body, { error: 'The invite has expired', code: 'invite_expired', field: 'token' });
});

test('invite endpoints need a session (401)', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anonymous = steady.client();
  const create = await anonymous.post('/api/invite', {});
  assert.equal(create.status, 401);
  assert.deepEqual(create.body, { error: 'Not logged in', code: 'unauthenticated' });
  const list = await anonymous.get('/api/invites');
  assert.equal(list.status, 401);
  assert.deepEqual(list.body, { error: 'Not logged in', code: 'unauthenticated' });
});

test('the database holds no usable invite: only a hash and a box sealed with the key outside it', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const token = tokenOf((await anna.post('/api/invite', {})).body.url);

  const rows = await steady.deps.db.selectFrom('invites').selectAll().where('created_by', 'is not', null).execute();
  assert.equal(rows.length, 1);
  const stored = JSON.stringify(rows);
  assert.ok(!stored.includes(token), 'the token must not be stored in the clear');
  assert.match(rows[0]!.token_hash, /^[0-9a-f]{64}$/);
  assert.notEqual(rows[0]!.token_hash, token);

  // Another server key cannot open the box: the list shows the invite as pending but without a link.
  steady.deps.secretKey = Buffer.alloc(32, 9);
  const list = await anna.get('/api/invites');
  assert.equal(list.body[0].status, 'pending');
  assert.equal(list.body[0].url, null);
});
