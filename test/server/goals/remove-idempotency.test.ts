import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp, keyed } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

// Decision 0200: an undo by amount sent again with its Idempotency-Key (a tab taking over the row of a tab that closed
// while sending it) takes one amount away, not two.
let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const DAY = '2026-01-15';

async function fiveTwice(): Promise<{ client: TestClient; remove: string; amounts: () => Promise<unknown> }> {
  const client = await steady.register(`remover${++emails}@example.com`);
  const goal = await client.post('/api/goals', { name: 'Water', daily: 8, days: 30, sets: { [DAY]: [5, 5] } });
  assert.equal(goal.status, 200, goal.text);
  const amounts = async () =>
    ((await client.get('/api/goals')).body as Array<{ sets: Record<string, number[]> }>)[0]!.sets[DAY];
  return { client, remove: `/api/goals/${goal.body.id}/sets/${DAY}/remove`, amounts };
}

test('an undo by amount repeated with its key removes one amount and answers the amounts as they are', async () => {
  const { client, remove, amounts } = await fiveTwice();
  const first = await client.post(remove, { amount: 5 }, keyed('undo-5-a'));
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.body.amounts, [5]);
  const repeat = await client.post(remove, { amount: 5 }, keyed('undo-5-a'));
  assert.equal(repeat.status, 200, repeat.text);
  assert.deepEqual(repeat.body, { ok: true, date: DAY, amounts: [5] });
  assert.deepEqual(await amounts(), [5]);

  // Another key is another undo; without a key every sending removes one, as before.
  assert.deepEqual((await client.post(remove, { amount: 5 }, keyed('undo-5-b'))).body.amounts, []);
  assert.deepEqual(await amounts(), undefined);
});

test('two undos with one key arriving together remove one amount', async () => {
  const { client, remove, amounts } = await fiveTwice();
  const answers = await Promise.all([1, 2].map(() => client.post(remove, { amount: 5 }, keyed('together'))));
  assert.deepEqual(
    answers.map((answer) => [answer.status, answer.body.amounts]),
    [
      [200, [5]],
      [200, [5]],
    ],
  );
  assert.deepEqual(await amounts(), [5]);
});

test('a key sent again with another body is refused (422) and removes nothing; a refused undo keeps no key', async () => {
  const { client, remove, amounts } = await fiveTwice();
  const missing = await client.post(remove, { amount: 3 }, keyed('k1'));
  assert.equal(missing.status, 404, missing.text);
  assert.equal(missing.body.code, 'amount_not_found');
  // The refusal changed nothing, so the key is free for the next undo.
  assert.deepEqual((await client.post(remove, { amount: 5 }, keyed('k1'))).body.amounts, [5]);
  const other = await client.post(remove, { amount: 4 }, keyed('k1'));
  assert.equal(other.status, 422, other.text);
  assert.equal(other.body.code, 'idempotency_key_reused');
  assert.deepEqual(await amounts(), [5]);
});
