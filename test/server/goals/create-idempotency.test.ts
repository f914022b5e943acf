import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { REQUEST_KEY_KEPT_MS } from '../../../src/server/http/request-keys-store.js';
import { createTestApp, type TestApp, keyed } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

// Decision 0130: a goal created with an Idempotency-Key, retried after its answer was lost, is created once.
let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const newUser = () => steady.register(`creator${++emails}@example.com`);
const goals = async (client: TestClient) => (await client.get('/api/goals')).body as Array<Record<string, unknown>>;
const PUSH_UPS = { name: 'Push-ups', daily: 50, days: 30, sets: { '2026-01-15': [20, 30] } };

test('the same key with the same body answers the goal the first request made, as it is now', async () => {
  const anna = await newUser();
  const first = await anna.post('/api/goals', PUSH_UPS, keyed('7d0c2b1e-create'));
  assert.equal(first.status, 200, first.text);
  await anna.post(`/api/goals/${first.body.id}/sets/2026-01-16`, { amount: 5 });
  steady.clock.advance(60_000);

  const retried = await anna.post('/api/goals', PUSH_UPS, keyed('7d0c2b1e-create'));
  assert.equal(retried.status, 200, retried.text);
  assert.deepEqual(retried.body, { ...first.body, sets: { '2026-01-15': [20, 30], '2026-01-16': [5] } });
  assert.deepEqual(await goals(anna), [retried.body]);

  // Without a key, or with another, the same body is another goal: two goals of one name are allowed.
  assert.equal((await anna.post('/api/goals', PUSH_UPS)).status, 200);
  assert.equal((await anna.post('/api/goals', PUSH_UPS, keyed('another-create'))).status, 200);
  assert.equal((await goals(anna)).length, 3);
});

test('two creations with one key arriving together make one goal', async () => {
  const ben = await newUser();
  const answers = await Promise.all([1, 2].map(() => ben.post('/api/goals', PUSH_UPS, keyed('together'))));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [200, 200],
  );
  assert.equal(answers[0]!.body.id, answers[1]!.body.id);
  assert.deepEqual(await goals(ben), [answers[0]!.body]);
});

test('a key sent again with another body is refused (422) and creates nothing', async () => {
  const carl = await newUser();
  assert.equal((await carl.post('/api/goals', PUSH_UPS, keyed('k1'))).status, 200);
  const other = await carl.post('/api/goals', { ...PUSH_UPS, name: 'Squats' }, keyed('k1'));
  assert.equal(other.status, 422, other.text);
  assert.equal(other.body.code, 'idempotency_key_reused');
  assert.equal(other.body.field, 'Idempotency-Key');
  assert.deepEqual(
    (await goals(carl)).map((goal) => goal.name),
    ['Push-ups'],
  );
});

test('a repeat after the goal was deleted answers 404 and does not bring it back', async () => {
  const dora = await newUser();
  const first = await dora.post('/api/goals', PUSH_UPS, keyed('gone'));
  assert.equal((await dora.delete(`/api/goals/${first.body.id}`)).status, 200);
  const retried = await dora.post('/api/goals', PUSH_UPS, keyed('gone'));
  assert.equal(retried.status, 404, retried.text);
  assert.deepEqual(await goals(dora), []);
});

test('keys are each user’s own, apart from import keys, and forgotten after a day', async () => {
  const emil = await newUser();
  const fay = await newUser();
  const emilsGoal = (await emil.post('/api/goals', PUSH_UPS, keyed('shared'))).body;
  const faysGoal = (await fay.post('/api/goals', PUSH_UPS, keyed('shared'))).body;
  assert.notEqual(emilsGoal.id, faysGoal.id);
  assert.deepEqual(await goals(fay), [faysGoal]);
  // The same key on an import names an import, not this goal.
  const doc = (await emil.get('/api/export')).body;
  assert.equal((await emil.post('/api/import', doc, keyed('shared'))).status, 200);

  steady.clock.advance(REQUEST_KEY_KEPT_MS - 1);
  assert.equal((await emil.post('/api/goals', PUSH_UPS, keyed('shared'))).body.id, emilsGoal.id);
  steady.clock.advance(1);
  const later = await emil.post('/api/goals', PUSH_UPS, keyed('shared'));
  assert.equal(later.status, 200);
  assert.notEqual(later.body.id, emilsGoal.id, 'a day later the key names a new creation');
  assert.equal((await goals(emil)).length, 3);
});

test('a malformed key is refused (400 invalid_idempotency_key) and creates nothing', async () => {
  const gus = await newUser();
  for (const bad of ['', 'x'.repeat(101), 'with space', 'ümlaut']) {
    const answer = await gus.post('/api/goals', PUSH_UPS, keyed(bad));
    assert.equal(answer.status, 400, `${JSON.stringify(bad)}: ${answer.text}`);
    assert.equal(answer.body.code, 'invalid_idempotency_key');
  }
  assert.deepEqual(await goals(gus), []);
});

test('a refused body stores no key: the same key with a valid body then creates the goal', async () => {
  const hana = await newUser();
  const refused = await hana.post('/api/goals', { ...PUSH_UPS, name: '' }, keyed('fix-and-retry'));
  assert.equal(refused.status, 400);
  const fixed = await hana.post('/api/goals', PUSH_UPS, keyed('fix-and-retry'));
  assert.equal(fixed.status, 200, fixed.text);
  assert.equal((await goals(hana)).length, 1);
});
