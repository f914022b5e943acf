/**
 * The web app's goal store (src/web/offline/goal-store.ts) over the real server, as a browser without IndexedDB runs
 * it (the queue in memory, as in some private modes): `fetch` goes to the test app with the person's session.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import type { TestClient } from '../support/client.js';

let app: TestApp;
let person: TestClient;
/** While set, a send of an entry fails as without a network; the goal list still comes. */
let sendsUnreachable = false;
/** While set, a send of an entry waits for it before it reaches the server. */
let sendsHeld: Promise<void> | undefined;

before(async () => {
  app = await createTestApp();
  person = await app.register('gone@example.com');
  // What the store needs of a browser's page, and a fetch that reaches the server as the page's would.
  Object.assign(globalThis, {
    window: new EventTarget(),
    document: Object.assign(new EventTarget(), { visibilityState: 'visible' }),
    fetch: async (path: string, init: RequestInit) => {
      if (sendsUnreachable && path.includes('/sets/')) throw new TypeError('Failed to fetch');
      if (path.includes('/sets/')) await sendsHeld;
      const answer = await person.request(init.method!, path, init.body && JSON.parse(String(init.body)));
      return new Response(answer.text, { status: answer.status });
    },
  });
  Object.defineProperty(globalThis, 'navigator', { value: { onLine: true }, configurable: true });
});
after(() => app.close());

test('an entry of a goal deleted elsewhere, refused after the new list came, is dropped with a notice naming the goal', async () => {
  const { GoalStore } = await import('../../src/web/offline/goal-store.js');
  const me = (await person.get('/api/me')).body as { id: number };
  const goal = (await person.post('/api/goals', { name: 'Water', unit: 'glasses', daily: 8 })).body as { id: string };
  const store = new GoalStore(me.id);
  await store.start();
  assert.deepEqual(
    store.snapshot.goals?.map((shown) => shown.name),
    ['Water'],
  );

  // A glass logged without a network: the send fails and waits for a retry.
  sendsUnreachable = true;
  store.log(goal.id, '2026-11-27', 1);
  for (let i = 0; i < 100 && !store.snapshot.offline; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(store.snapshot.offline, true, 'the send failed for want of the network');

  // Deleted on another device; the list this device asks for next comes without it, before the entry is sent.
  assert.equal((await person.delete(`/api/goals/${goal.id}`)).status, 200);
  assert.equal(await store.reload(), true);
  sendsUnreachable = false;
  await store.flush();
  store.stop();

  assert.deepEqual(
    store.snapshot.notices.map(({ kind, goalName }) => ({ kind, goalName })),
    [{ kind: 'goalGone', goalName: 'Water' }],
  );
  assert.deepEqual(store.snapshot.pending, {});
  assert.deepEqual(store.snapshot.goals, []);
});

test('a list that kept crossing a send is asked for again once the queue is through', async () => {
  const { GoalStore } = await import('../../src/web/offline/goal-store.js');
  const me = (await person.get('/api/me')).body as { id: number };
  const water = (await person.post('/api/goals', { name: 'Water', unit: 'glasses', daily: 8 })).body as { id: string };
  const tea = (await person.post('/api/goals', { name: 'Tea', unit: 'cups', daily: 3 })).body as { id: string };
  const store = new GoalStore(me.id);
  await store.start();

  // A glass on its way: its request is held until `arrive` is called.
  let arrive = () => undefined as void;
  sendsHeld = new Promise<void>((resolve) => (arrive = resolve));
  store.log(water.id, '2026-11-27', 1);
  // Meanwhile another device logs a cup of tea; every list asked for while the glass is on its way may be older
  // than its answer, so reload gives up.
  assert.equal((await person.post(`/api/goals/${tea.id}/sets/2026-11-27`, { amount: 1 })).status, 200);
  assert.equal(await store.reload(), false);
  sendsHeld = undefined;
  arrive();

  const teaToday = () => store.snapshot.goals?.find((goal) => goal.id === tea.id)?.sets['2026-11-27'];
  for (let i = 0; i < 200 && teaToday() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  store.stop();
  assert.deepEqual(teaToday(), [1], "the other device's cup shows without waiting for the next minute's reload");
});
