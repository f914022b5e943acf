import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp, keyed } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

// Decision 0141: an invite created with an Idempotency-Key, retried after its answer was lost, is created once.
let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const newUser = () => steady.register(`inviter${++emails}@example.com`);
const invites = async (client: TestClient) => (await client.get('/api/invites')).body as Array<{ url: string | null }>;

test('the same key with the same note answers the link the first request made, and makes nothing new', async () => {
  const anna = await newUser();
  const first = await anna.post('/api/invite', { note: 'for Ben' }, keyed('a1b2-invite'));
  assert.equal(first.status, 200, first.text);
  steady.clock.advance(60_000);
  const retried = await anna.post('/api/invite', { note: 'for Ben' }, keyed('a1b2-invite'));
  assert.equal(retried.status, 200, retried.text);
  assert.deepEqual(retried.body, first.body);
  assert.deepEqual(
    (await invites(anna)).map((invite) => invite.url),
    [first.body.url],
  );

  // Without a key, or with another, the same note is another invite.
  assert.equal((await anna.post('/api/invite', { note: 'for Ben' })).status, 200);
  assert.equal((await anna.post('/api/invite', { note: 'for Ben' }, keyed('another'))).status, 200);
  assert.equal((await invites(anna)).length, 3);
});

test('two creations with one key arriving together make one invite', async () => {
  const ben = await newUser();
  const answers = await Promise.all([1, 2].map(() => ben.post('/api/invite', {}, keyed('together'))));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [200, 200],
  );
  assert.equal(answers[0]!.body.url, answers[1]!.body.url);
  assert.equal((await invites(ben)).length, 1);
});

test('a key sent again with another note is refused (422) and creates nothing', async () => {
  const carl = await newUser();
  assert.equal((await carl.post('/api/invite', { note: 'one' }, keyed('k1'))).status, 200);
  const other = await carl.post('/api/invite', { note: 'two' }, keyed('k1'));
  assert.equal(other.status, 422, other.text);
  assert.equal(other.body.code, 'idempotency_key_reused');
  assert.equal((await invites(carl)).length, 1);
});

test('a repeat after the invite was revoked answers 404 and creates nothing', async () => {
  const dora = await newUser();
  const first = await dora.post('/api/invite', {}, keyed('revoked-later'));
  assert.equal(first.status, 200, first.text);
  assert.equal((await dora.post('/api/invites/revoke', { url: first.body.url })).status, 200);
  const retried = await dora.post('/api/invite', {}, keyed('revoked-later'));
  assert.equal(retried.status, 404, retried.text);
  assert.equal(retried.body.code, 'invite_not_found');
  assert.equal((await invites(dora)).length, 1);
});

test("one user's key is not another's: the same key makes each their own invite", async () => {
  const [eve, finn] = [await newUser(), await newUser()];
  const eves = await eve.post('/api/invite', {}, keyed('shared-key'));
  const finns = await finn.post('/api/invite', {}, keyed('shared-key'));
  assert.equal(finns.status, 200, finns.text);
  assert.notEqual(finns.body.url, eves.body.url);
});

test('a malformed key is refused before anything is made', async () => {
  const gus = await newUser();
  const answer = await gus.post('/api/invite', {}, keyed('not a key!'));
  assert.equal(answer.status, 400, answer.text);
  assert.equal(answer.body.code, 'invalid_idempotency_key');
  assert.equal((await invites(gus)).length, 0);
});
