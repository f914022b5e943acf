import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePointLength } from '../../../src/common/text.js';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../../src/server/auth/passwords.js';
import { ConcurrencyLimit } from '../../../src/server/concurrency-limit.js';
import { hashesAtOnce, threadPoolSize } from '../../../src/server/thread-pool.js';

/** `$argon2id$v=19$m=19456,t=2,p=1$`: algorithm, version and cost, everything before salt and digest. */
function costPrefix(hash: string): string {
  return hash.split('$').slice(0, 4).join('$');
}

describe('passwords', () => {
  it('hashes with argon2id at m=19456 KiB, t=2, p=1, salted, and verifies only the exact password', async () => {
    const first = await hashPassword(' secret ');
    const second = await hashPassword(' secret ');
    assert.equal(costPrefix(first), '$argon2id$v=19$m=19456,t=2,p=1');
    assert.notEqual(first, second);
    assert.equal(await verifyPassword(first, ' secret '), true);
    assert.equal(await verifyPassword(first, 'secret'), false);
    assert.equal(await verifyPassword('not a hash', 'secret'), false);
  });

  // The timing of login for an unknown e-mail: the route awaits verifyAgainstDummy where it would await
  // verifyPassword (accounts/routes.ts). That costs the same only while the dummy hash has the same cost.
  it('the dummy hash for unknown e-mail addresses has exactly the cost of a real hash', async () => {
    assert.equal(costPrefix(DUMMY_PASSWORD_HASH), costPrefix(await hashPassword('anything')));
  });

  it('password (and name, note) lengths count code points, as a user counts characters', () => {
    assert.equal(codePointLength('😀'.repeat(7)), 7);
    assert.equal(codePointLength('abc def '), 8);
    assert.equal(codePointLength(''), 0);
  });

  it('hashing runs off the event loop: other callbacks run while a verification is under way', async () => {
    let loopRan = false;
    setImmediate(() => (loopRan = true));
    const ok = await verifyPassword(DUMMY_PASSWORD_HASH, 'wrong');
    assert.equal(ok, false);
    assert.equal(loopRan, true, 'a synchronous hash would have held the loop until it was done');
  });

  it('at most the queue limit of hashes run at once; a failing one frees its place', async () => {
    const queue = new ConcurrencyLimit(2);
    let running = 0;
    let most = 0;
    const task = (fail: boolean) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (fail) throw new Error('bad hash');
      return 'done';
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => queue.run(task(i === 1))));
    assert.equal(most, 2);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
    );
  });

  it('a place given back twice is given back once', async () => {
    const limit = new ConcurrencyLimit(1);
    const release = await limit.acquire();
    const second = limit.acquire();
    const third = limit.acquire();
    let thirdHasPlace = false;
    void third.then(() => (thirdHasPlace = true));
    release();
    release();
    const releaseSecond = await second;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(thirdHasPlace, false, 'the repeated release gave the third a place beside the second');
    releaseSecond();
    await third;
    assert.equal(thirdHasPlace, true);
  });

  it('hashes run one per core, leaving two threads of the pool to other work', () => {
    assert.equal(threadPoolSize({}), 4, "libuv's default");
    assert.equal(threadPoolSize({ UV_THREADPOOL_SIZE: '10' }), 10);
    assert.equal(threadPoolSize({ UV_THREADPOOL_SIZE: 'lots' }), 4);
    assert.equal(hashesAtOnce(2, 4), 2);
    assert.equal(hashesAtOnce(8, 4), 2, 'many cores, default pool: two threads stay free');
    assert.equal(hashesAtOnce(8, 10), 8);
    assert.equal(hashesAtOnce(1, 4), 1);
    assert.equal(hashesAtOnce(4, 2), 1, 'a tiny pool still hashes');
  });
});
