import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { REQUEST_KEY_KEPT_MS, REQUEST_KEYS_KEPT_MAX } from '../../../src/server/http/request-keys-store.js';
import { createTestApp, type TestApp, keyed } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

// Decision 0127: an import with an Idempotency-Key, retried after its answer was lost, adds its goals once.
let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const newUser = () => steady.register(`keyed${++emails}@example.com`);

/** A document of `names.length` goals, as a second account's export. */
async function exportOf(...names: string[]) {
  const exporter = await newUser();
  for (const name of names) await exporter.post('/api/goals', { name, daily: 10, sets: { '2026-01-15': [3, 4] } });
  return (await exporter.get('/api/export')).body;
}

const goalNames = async (client: TestClient) =>
  ((await client.get('/api/goals')).body as Array<{ name: string }>).map((goal) => goal.name);

test('the same key with the same document answers the first import and adds nothing more', async () => {
  const doc = await exportOf('Walk', 'Read');
  const anna = await newUser();
  const key = '3f1c9a52-5b7e-4c1d-9a0e-2b6f8d4c7e11';
  const first = await anna.post('/api/import', doc, keyed(key));
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.body, { ok: true, goals: 2 });
  steady.clock.advance(60_000);
  const retried = await anna.post('/api/import', doc, keyed(key));
  assert.equal(retried.status, 200, retried.text);
  assert.deepEqual(retried.body, { ok: true, goals: 2 });
  assert.deepEqual(await goalNames(anna), ['Walk', 'Read']);

  // Without a key, or with a new one, the same document is another import, as a user who imports twice means it.
  assert.equal((await anna.post('/api/import', doc)).status, 200);
  assert.equal((await anna.post('/api/import', doc, keyed('second-import'))).status, 200);
  assert.deepEqual(await goalNames(anna), ['Walk', 'Read', 'Walk', 'Read', 'Walk', 'Read']);
});

test('two imports with one key arriving together add the goals once', async () => {
  const doc = await exportOf('Swim');
  const ben = await newUser();
  const answers = await Promise.all([1, 2].map(() => ben.post('/api/import', doc, keyed('together'))));
  assert.deepEqual(
    answers.map((answer) => [answer.status, answer.body]),
    [
      [200, { ok: true, goals: 1 }],
      [200, { ok: true, goals: 1 }],
    ],
  );
  assert.deepEqual(await goalNames(ben), ['Swim']);
});

test('a key sent again with another document is refused (422) and adds nothing', async () => {
  const carl = await newUser();
  assert.equal((await carl.post('/api/import', await exportOf('Stretch'), keyed('k1'))).status, 200);
  const other = await carl.post('/api/import', await exportOf('Run', 'Row'), keyed('k1'));
  assert.equal(other.status, 422, other.text);
  assert.equal(other.body.code, 'idempotency_key_reused');
  assert.equal(other.body.field, 'Idempotency-Key');
  assert.deepEqual(await goalNames(carl), ['Stretch']);
});

test('keys are each user’s own and are forgotten after a day', async () => {
  const doc = await exportOf('Plank');
  const dora = await newUser();
  const emil = await newUser();
  assert.equal((await dora.post('/api/import', doc, keyed('shared-key'))).status, 200);
  assert.equal((await emil.post('/api/import', doc, keyed('shared-key'))).status, 200);
  assert.deepEqual(await goalNames(emil), ['Plank']);

  steady.clock.advance(REQUEST_KEY_KEPT_MS - 1);
  assert.equal((await dora.post('/api/import', doc, keyed('shared-key'))).status, 200);
  assert.deepEqual(await goalNames(dora), ['Plank'], 'still known just before a day has passed');
  steady.clock.advance(1);
  assert.equal((await dora.post('/api/import', doc, keyed('shared-key'))).status, 200);
  assert.deepEqual(await goalNames(dora), ['Plank', 'Plank'], 'a day later the key names a new import');
});

test('a malformed key is refused (400 invalid_idempotency_key) before anything is imported', async () => {
  const doc = await exportOf('Yoga');
  const finn = await newUser();
  for (const key of ['', 'has space', 'x'.repeat(101), 'ümlaut', 'a/b']) {
    const answer = await finn.post('/api/import', doc, keyed(key));
    assert.equal(answer.status, 400, `${JSON.stringify(key)}: ${answer.text}`);
    assert.equal(answer.body.code, 'invalid_idempotency_key');
    assert.equal(answer.body.field, 'Idempotency-Key');
  }
  assert.equal((await finn.post('/api/import', doc, keyed('x'.repeat(100)))).status, 200, '100 characters are taken');
  assert.deepEqual(await goalNames(finn), ['Yoga']);
});

test('a user keeps at most the newest 100 keys, so imports of no goals cannot fill the table', async () => {
  const empty = await exportOf();
  const gina = await newUser();
  const { id: userId } = (await gina.get('/api/me')).body;
  for (let i = 0; i <= REQUEST_KEYS_KEPT_MAX; i++) {
    steady.clock.advance(1);
    assert.equal((await gina.post('/api/import', empty, keyed(`empty-${i}`))).status, 200);
  }
  const keys = await steady.deps.db.selectFrom('request_keys').select('key').where('user_id', '=', userId).execute();
  assert.equal(keys.length, REQUEST_KEYS_KEPT_MAX);
  assert.ok(!keys.some((row) => row.key === 'empty-0'), 'the oldest key is gone');
  // The newest key still names its import: the same key with another document is refused.
  const other = await gina.post('/api/import', await exportOf('Hike'), keyed(`empty-${REQUEST_KEYS_KEPT_MAX}`));
  assert.equal(other.status, 422);
});
