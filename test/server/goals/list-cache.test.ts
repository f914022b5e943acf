import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.js';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/open.js';
import { GoalListCache } from '../../../src/server/goals/list-cache.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import { TestClient } from '../../support/client.js';

test('the cache answers only for the version it was filled at', () => {
  const cache = new GoalListCache();
  cache.set(1, 4, Buffer.from('[4]'));
  assert.equal(cache.get(1, 4)?.body.toString(), '[4]');
  assert.equal(cache.get(1, 5), undefined);
  assert.equal(cache.get(2, 4), undefined);
  cache.set(1, 5, Buffer.from('[5]'));
  assert.equal(cache.get(1, 4), undefined);
  assert.equal(cache.get(1, 5)?.body.toString(), '[5]');
});

test('the cache stays within its byte budget, dropping the least recently used first', () => {
  const cache = new GoalListCache(80);
  const ten = (c: string) => Buffer.alloc(10, c);
  for (let user = 1; user <= 8; user++) cache.set(user, 0, ten(String(user)));
  cache.get(1, 0); // user 1 is now the most recently used
  cache.set(9, 0, ten('9'));
  assert.equal(cache.get(2, 0), undefined, 'the least recently used entry left');
  assert.ok(cache.get(1, 0), 'a recently read entry stayed');
  assert.ok(cache.get(9, 0));
  cache.set(10, 0, Buffer.alloc(11)); // more than an eighth of the budget: not kept at all
  assert.equal(cache.get(10, 0), undefined);
  assert.ok(cache.get(3, 0), 'an over-sized answer pushed nobody out');
});

test('compressed forms count against the budget once made, and only while their entry is kept', async () => {
  // Eight lists of equal size fill the budget but for a few bytes, fewer than any compressed form takes.
  const list = (user: number) => Buffer.from(JSON.stringify(Array.from({ length: 100 }, (_, i) => `${user}-${i}`)));
  const size = list(1).length;
  const cache = new GoalListCache(8 * size + 8);
  for (let user = 1; user <= 8; user++) cache.set(user, 0, list(user));

  const replaced = cache.get(8, 0)!;
  cache.set(8, 1, list(8)); // the version-0 entry leaves before its form is made
  await replaced.encoded('br');
  for (let user = 1; user <= 8; user++) assert.ok(cache.get(user, user === 8 ? 1 : 0), `user ${user} still kept`);

  await cache.get(8, 1)!.encoded('gzip');
  assert.equal(cache.get(1, 0), undefined, 'the least recently used left to make room for the form');
  for (let user = 2; user <= 8; user++) assert.ok(cache.get(user, user === 8 ? 1 : 0), `user ${user} still kept`);
});

test('requests for the same version share one build; another version, or a build that failed, builds anew', async () => {
  const cache = new GoalListCache();
  let builds = 0;
  const build =
    (text: string, fail = false) =>
    async () => {
      builds++;
      await new Promise((resolve) => setImmediate(resolve));
      if (fail) throw new Error('the database went away');
      return Buffer.from(text);
    };
  const together = await Promise.all([
    cache.getOrBuild(1, 4, build('[4]')),
    cache.getOrBuild(1, 4, build('[4, again]')),
    cache.getOrBuild(1, 4, build('[4, once more]')),
  ]);
  assert.equal(builds, 1, 'three requests at once read the list once');
  assert.deepEqual(
    together.map((list) => list.body.toString()),
    ['[4]', '[4]', '[4]'],
  );
  assert.equal((await cache.getOrBuild(1, 4, build('[unused]'))).body.toString(), '[4]', 'then it is kept');
  assert.equal(builds, 1);

  // A write during the build: the newer version is not served the older build.
  const [older, newer] = await Promise.all([
    cache.getOrBuild(2, 1, build('[1]')),
    cache.getOrBuild(2, 2, build('[2]')),
  ]);
  assert.deepEqual([older.body.toString(), newer.body.toString()], ['[1]', '[2]']);
  assert.equal(builds, 3);
  assert.equal(cache.get(2, 2)?.body.toString(), '[2]', 'the newer list is kept');

  const failed = [cache.getOrBuild(3, 1, build('', true)), cache.getOrBuild(3, 1, build('[not asked]'))].map((list) =>
    Promise.resolve(list),
  );
  for (const attempt of failed) await assert.rejects(attempt, /went away/);
  assert.equal(builds, 4, 'the waiting request failed with the build it waited for');
  assert.equal((await cache.getOrBuild(3, 1, build('[3]'))).body.toString(), '[3]', 'the next request builds anew');
});

test('with the cache off (a budget of 0) every request builds its own list, also at the same time', async () => {
  const cache = new GoalListCache(0);
  let builds = 0;
  const build = async () => {
    builds++;
    await new Promise((resolve) => setImmediate(resolve));
    return Buffer.from('[]');
  };
  await Promise.all([cache.getOrBuild(1, 4, build), cache.getOrBuild(1, 4, build)]);
  await cache.getOrBuild(1, 4, build);
  assert.equal(builds, 3);
});

test('builds of different users run at most buildsAtOnce at a time, the others in turn; a failed one gives its place back', async () => {
  // Decision 0231: each build holds rows and text across turns of the event loop, so many at once cost memory.
  for (const [budget, atOnce] of [
    [16 * 1024 * 1024, 2],
    [0, 1],
  ] as const) {
    const cache = new GoalListCache(budget, atOnce);
    let running = 0;
    let most = 0;
    const build = (user: number) => async () => {
      running++;
      most = Math.max(most, running);
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
      running--;
      if (user === 2) throw new Error('the database went away');
      return Buffer.from(`[${user}]`);
    };
    const users = [1, 2, 3, 4, 5];
    const lists = await Promise.allSettled(users.map((user) => cache.getOrBuild(user, 1, build(user))));
    assert.equal(most, atOnce, `at most ${atOnce} at once (budget ${budget})`);
    assert.deepEqual(
      lists.map((list) => (list.status === 'fulfilled' ? list.value.body.toString() : 'failed')),
      ['[1]', 'failed', '[3]', '[4]', '[5]'],
    );
  }
});

test('a build of an older version never replaces the newer list kept meanwhile', () => {
  const cache = new GoalListCache();
  cache.set(1, 5, Buffer.from('[5]'));
  assert.equal(cache.set(1, 4, Buffer.from('[4]')).body.toString(), '[4]', 'the older build still answers its request');
  assert.equal(cache.get(1, 5)?.body.toString(), '[5]');
  assert.equal(cache.get(1, 4), undefined);
});

// Two instances of the app on one database, as two server processes would be: each has its own cache.
let steady: TestApp;
let secondDatabase: DatabaseHandle;
let secondApp: FastifyInstance;
before(async () => {
  steady = await createTestApp();
  secondDatabase = await openDatabase(steady.deps.config.database);
  secondApp = await buildApp({ ...steady.deps, db: secondDatabase.db });
});
after(async () => {
  await secondApp.close();
  await secondDatabase.close();
  await steady.close();
});

test('every kind of goal change made through one process shows in the next list of another', async () => {
  const here = await steady.register('two-processes@example.com');
  const there = new TestClient(secondApp, steady.deps.config.baseUrl);
  for (const [name, value] of here.cookies) there.cookies.set(name, value);
  const listThere = async () =>
    (await there.get('/api/goals')).body as Array<{ id: string; name: string; sets: object }>;

  assert.deepEqual(await listThere(), []);
  const created = (await here.post('/api/goals', { name: 'Squats' })).body as { id: string };
  assert.deepEqual(
    (await listThere()).map((g) => g.name),
    ['Squats'],
    'create',
  );

  await here.post(`/api/goals/${created.id}/sets/2026-01-15`, { amount: 20 });
  assert.deepEqual((await listThere())[0]!.sets, { '2026-01-15': [20] }, 'log an amount');

  await here.post(`/api/goals/${created.id}/sets/2026-01-15/remove`, { amount: 20 });
  assert.deepEqual((await listThere())[0]!.sets, {}, 'remove an amount');

  await here.patch(`/api/goals/${created.id}`, { name: 'Deep squats', sets: { '2026-01-14': [5] } });
  const [patched] = await listThere();
  assert.deepEqual([patched!.name, patched!.sets], ['Deep squats', { '2026-01-14': [5] }], 'patch');

  await here.delete(`/api/goals/${created.id}`);
  assert.deepEqual(await listThere(), [], 'delete');
});

test("another user's change leaves a user's list as it was", async () => {
  const anna = await steady.register('anna-cache@example.com');
  const ben = await steady.register('ben-cache@example.com');
  await anna.post('/api/goals', { name: 'Anna reads' });
  const before = (await anna.get('/api/goals')).text;
  await ben.post('/api/goals', { name: 'Ben runs' });
  assert.equal((await anna.get('/api/goals')).text, before);
  assert.deepEqual(
    (await ben.get('/api/goals')).body.map((g: { name: string }) => g.name),
    ['Ben runs'],
  );
});

test('GOAL_LIST_CACHE_MB=0 turns the cache off: every list is read from the database', async () => {
  const uncachedApp = await buildApp({ ...steady.deps, config: { ...steady.deps.config, goalListCacheBytes: 0 } });
  try {
    const cached = await steady.register('budget-zero@example.com');
    const uncached = new TestClient(uncachedApp, steady.deps.config.baseUrl);
    for (const [name, value] of cached.cookies) uncached.cookies.set(name, value);
    const created = (await cached.post('/api/goals', { name: 'Before' })).body as { id: string };
    const names = async (client: TestClient) =>
      ((await client.get('/api/goals')).body as Array<{ name: string }>).map((g) => g.name);
    assert.deepEqual(await names(cached), ['Before']);
    assert.deepEqual(await names(uncached), ['Before']);
    // Behind the app's back (no goals_version bump): only a list that is read anew can see it.
    await steady.deps.db.updateTable('goals').set({ name: 'After' }).where('id', '=', Number(created.id)).execute();
    assert.deepEqual(await names(cached), ['Before'], 'the default budget keeps the list');
    assert.deepEqual(await names(uncached), ['After'], 'a budget of 0 keeps nothing');
  } finally {
    await uncachedApp.close();
  }
});
