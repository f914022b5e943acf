import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GOAL_LIMITS } from '../../../src/common/goal.js';
import { DAY } from '../../../src/server/clock.js';
import { THROTTLE_RULES } from '../../../src/server/auth/throttle.js';
import { setsJson } from '../../../src/server/goals/serialize.js';
import { createTestApp } from '../../support/app.js';

const BIG = 123_456_789;

/** `YYYY-MM-DD` of the n-th day after 2000-01-01. */
const dayKey = (n: number) => new Date(Date.UTC(2000, 0, 1 + n)).toISOString().slice(0, 10);

describe('resource caps (issue 13 point 6)', () => {
  it('at most 200 goals a user: the 201st is 400 { error, code }, also when created in parallel', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    const max = GOAL_LIMITS.goalsPerUserMax;
    assert.equal(max, 200);
    for (let n = 1; n <= max - 5; n++) assert.equal((await anna.post('/api/goals', { name: `Goal ${n}` })).status, 200);
    const parallel = await Promise.all(
      Array.from({ length: 10 }, (_, n) => anna.post('/api/goals', { name: `Parallel ${n}` })),
    );
    assert.equal(parallel.filter((answer) => answer.status === 200).length, 5);
    const over = await anna.post('/api/goals', { name: 'One too many' });
    assert.equal(over.status, 400);
    assert.deepEqual(over.body, { error: 'a user may have at most 200 goals', code: 'too_many_goals' });
    assert.equal((await anna.get('/api/goals')).body.length, max);

    // Another user is not affected, and deleting one makes room again.
    const bert = await steady.register('bert@example.com');
    assert.equal((await bert.post('/api/goals', { name: 'Mine' })).status, 200);
    const first = (await anna.get('/api/goals')).body[0];
    assert.equal((await anna.delete(`/api/goals/${first.id}`)).status, 200);
    assert.equal((await anna.post('/api/goals', { name: 'Room again' })).status, 200);
  });

  it("one goal's stored sets are capped at 128 KiB: larger sets and amounts logged beyond it are 400 goal_too_large", async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    assert.equal(GOAL_LIMITS.setsJsonMaxBytes, 128 * 1024);

    const sets: Record<string, number[]> = {};
    let day = 0;
    while (setsJson(sets).length < GOAL_LIMITS.setsJsonMaxBytes - 200) sets[dayKey(day++)] = [BIG, BIG, BIG];
    const created = await anna.post('/api/goals', { name: 'Nearly full', sets });
    assert.equal(created.status, 200, created.text);

    const tooBig = { ...sets, [dayKey(day)]: Array(20).fill(BIG) };
    const refused = await anna.post('/api/goals', { name: 'Too big', sets: tooBig });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'goal_too_large');
    assert.equal((await anna.patch(`/api/goals/${created.body.id}`, { sets: tooBig })).body.code, 'goal_too_large');

    let logged = 0;
    let answer;
    do {
      answer = await anna.post(`/api/goals/${created.body.id}/sets/${dayKey(day + 1)}`, { amount: BIG });
      if (answer.status === 200) logged++;
    } while (answer.status === 200 && logged < 100);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.code, 'goal_too_large');
    const [stored] = (await anna.get('/api/goals')).body;
    assert.equal(stored.sets[dayKey(day + 1)].length, logged, 'the refused amount was not stored');
    // Exactly at the cap: the stored text fits, one more amount would not (the cap counts the list's bytes).
    const storedBytes = JSON.stringify(stored.sets).length;
    assert.ok(storedBytes <= GOAL_LIMITS.setsJsonMaxBytes);
    assert.ok(storedBytes + `,${BIG}`.length > GOAL_LIMITS.setsJsonMaxBytes);
  });

  it('invite creation is throttled per user: 50, then 429 until one comes back', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    const bert = await steady.register('bert@example.com');
    const rule = THROTTLE_RULES.invitePerUser;
    assert.equal(rule.capacity, 50);
    assert.equal(rule.refillMs, DAY / 50);
    for (let n = 0; n < rule.capacity; n++) assert.equal((await anna.post('/api/invite', {})).status, 200);
    const throttled = await anna.post('/api/invite', {});
    assert.equal(throttled.status, 429);
    assert.equal(throttled.body.code, 'too_many_attempts');
    assert.equal((await bert.post('/api/invite', {})).status, 200, 'per user');
    steady.clock.advance(rule.refillMs);
    assert.equal((await anna.post('/api/invite', {})).status, 200);
    assert.equal((await anna.post('/api/invite', {})).status, 429);
  });
});
