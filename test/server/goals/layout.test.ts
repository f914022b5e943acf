import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setGoalOrder } from '../../../src/server/goals/layout-store.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';
import { loggedDatabase } from '../../support/logged-database.js';

let steady: TestApp;
let emails = 0;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const newUser = () => steady.register(`arranger${++emails}@example.com`);
const createGoals = async (client: TestClient, count: number) => {
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) ids.push((await client.post('/api/goals', { name: `Goal ${i}` })).body.id);
  return ids;
};
const layout = async (client: TestClient) => (await client.get('/api/goal-layout')).body;
const listedIds = async (client: TestClient) =>
  (await client.get('/api/goals')).body.map((goal: { id: string }) => goal.id);

test('a new user’s layout is creation order with nothing archived', async () => {
  const anna = await newUser();
  assert.deepEqual(await layout(anna), { order: [], archived: [] });
  const ids = await createGoals(anna, 3);
  const answer = await anna.get('/api/goal-layout');
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { order: ids, archived: [] });
});

test('PUT order places the listed goals first; unlisted and new goals follow in creation order', async () => {
  const anna = await newUser();
  const [a, b, c, d] = await createGoals(anna, 4);
  const put = await anna.put('/api/goal-layout/order', { ids: [c, a] });
  assert.equal(put.status, 200);
  assert.deepEqual(put.body, { ok: true });
  assert.deepEqual((await layout(anna)).order, [c, a, b, d]);
  const [e] = await createGoals(anna, 1);
  assert.deepEqual((await layout(anna)).order, [c, a, b, d, e]);
  // A later order replaces the earlier one entirely.
  await anna.put('/api/goal-layout/order', { ids: [e, d, c, b, a] });
  assert.deepEqual((await layout(anna)).order, [e, d, c, b, a]);
  await anna.put('/api/goal-layout/order', { ids: [b] });
  assert.deepEqual((await layout(anna)).order, [b, a, c, d, e]);
  // The spec's list keeps creation order.
  assert.deepEqual(await listedIds(anna), [a, b, c, d, e]);
});

test('archive hides nothing from GET /api/goals, is listed in the layout and can be undone; both repeat safely', async () => {
  const anna = await newUser();
  const [a, b, c] = await createGoals(anna, 3);
  const archived = await anna.post(`/api/goals/${b}/archive`);
  assert.equal(archived.status, 200);
  assert.deepEqual(archived.body, { ok: true });
  assert.equal((await anna.post(`/api/goals/${b}/archive`)).status, 200);
  await anna.post(`/api/goals/${c}/archive`);
  assert.deepEqual(await layout(anna), { order: [a, b, c], archived: [b, c] });
  assert.deepEqual(await listedIds(anna), [a, b, c]);
  // Moving keeps the archive state, archiving keeps the place.
  await anna.put('/api/goal-layout/order', { ids: [c, b, a] });
  assert.deepEqual(await layout(anna), { order: [c, b, a], archived: [c, b] });
  const restored = await anna.post(`/api/goals/${c}/unarchive`);
  assert.equal(restored.status, 200);
  assert.deepEqual(restored.body, { ok: true });
  assert.equal((await anna.post(`/api/goals/${a}/unarchive`)).status, 200);
  assert.deepEqual(await layout(anna), { order: [c, b, a], archived: [b] });
});

test('another user’s or a missing goal is 404 goal_not_found, and nothing changes', async () => {
  const anna = await newUser();
  const bert = await newUser();
  const [a, b] = await createGoals(anna, 2);
  const [bertsGoal] = await createGoals(bert, 1);
  await anna.put('/api/goal-layout/order', { ids: [b, a] });

  for (const path of ['archive', 'unarchive']) {
    for (const id of [bertsGoal, '999999', '0', 'x', '99999999999']) {
      const answer = await anna.post(`/api/goals/${id}/${path}`);
      assert.equal(answer.status, 404, `${path} ${id}`);
      assert.equal(answer.body.code, 'goal_not_found');
    }
  }
  const foreign = await anna.put('/api/goal-layout/order', { ids: [a, bertsGoal] });
  assert.equal(foreign.status, 404);
  assert.deepEqual(foreign.body, { error: 'ids[1] is not one of your goals', code: 'goal_not_found', field: 'ids[1]' });
  const tooLarge = await anna.put('/api/goal-layout/order', { ids: ['9999999999'] });
  assert.equal(tooLarge.status, 404);
  assert.equal(tooLarge.body.field, 'ids[0]');

  assert.deepEqual(await layout(anna), { order: [b, a], archived: [] });
  assert.deepEqual(await layout(bert), { order: [bertsGoal], archived: [] });
});

test('a malformed order is 400 invalid_input naming the field', async () => {
  const anna = await newUser();
  const [a] = await createGoals(anna, 1);
  for (const body of [{}, { ids: 'x' }, { ids: [Number(a)] }, { ids: [a, a] }, { ids: ['1a'] }, { ids: [''] }]) {
    const answer = await anna.put('/api/goal-layout/order', body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(answer.body.code, 'invalid_input');
  }
  const tooMany = await anna.put('/api/goal-layout/order', {
    ids: Array.from({ length: 201 }, (_, i) => String(i + 1)),
  });
  assert.equal(tooMany.status, 400);
});

test('the layout needs a session', async () => {
  const stranger = steady.client();
  assert.equal((await stranger.get('/api/goal-layout')).status, 401);
  assert.equal((await stranger.put('/api/goal-layout/order', { ids: [] })).status, 401);
  assert.equal((await stranger.post('/api/goals/1/archive')).status, 401);
});

test('deleting a goal removes its layout row (ON DELETE CASCADE)', async () => {
  const anna = await newUser();
  const [a, b] = await createGoals(anna, 2);
  await anna.put('/api/goal-layout/order', { ids: [b, a] });
  await anna.post(`/api/goals/${b}/archive`);
  await anna.delete(`/api/goals/${b}`);
  assert.deepEqual(await layout(anna), { order: [a], archived: [] });
  const rows = await steady.deps.db.selectFrom('goal_layout').selectAll().where('goal_id', '=', Number(b)).execute();
  assert.deepEqual(rows, []);
});

test('an order of many goals is written in a fixed number of statements, whatever their count', async () => {
  const logged = loggedDatabase(steady.deps.config.database);
  try {
    const statementsOfAnOrder = async (count: number) => {
      const client = await newUser();
      const { id: userId } = (await client.get('/api/me')).body;
      const ids = (await createGoals(client, count)).map(Number).reverse();
      logged.statements.length = 0;
      assert.deepEqual(await setGoalOrder(logged.db, userId, ids), []);
      assert.deepEqual((await layout(client)).order, ids.map(String));
      return logged.statements.length;
    };
    assert.equal(await statementsOfAnOrder(12), await statementsOfAnOrder(2));
  } finally {
    await logged.close();
  }
});
