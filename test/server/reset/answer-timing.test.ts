import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResetAnswerTiming, type TimingSource } from '../../../src/server/accounts/reset-timing.js';

/** A clock that only moves when told to, and records what the code under test waited for. */
function fakeTime(): TimingSource & { at: number; slept: number[] } {
  const time = {
    at: 1_000,
    slept: [] as number[],
    now: () => time.at,
    async sleep(ms: number) {
      time.slept.push(ms);
      time.at += ms;
    },
  };
  return time;
}

describe('reset-request answer timing (issue 13 point 11)', () => {
  it('an unknown address waits until its answer took as long as a typical delivery to a known one', async () => {
    const time = fakeTime();
    const timing = new ResetAnswerTiming(time);

    // Before any delivery there is nothing to match.
    await timing.padFrom(timing.start());
    assert.deepEqual(time.slept, []);

    const delivery = timing.start();
    time.at += 120; // storing the link and a whole SMTP delivery
    timing.recordDelivery(delivery);

    const unknown = timing.start();
    time.at += 20; // the short SMTP conversation of an unknown address
    await timing.padFrom(unknown);
    assert.deepEqual(time.slept, [100]);
    assert.equal(time.at - unknown, 120);

    // An answer that already took longer waits no more.
    const slow = timing.start();
    time.at += 200;
    await timing.padFrom(slow);
    assert.deepEqual(time.slept, [100]);
  });

  it('follows a moving average of deliveries and never pads beyond 5 s', async () => {
    const time = fakeTime();
    const timing = new ResetAnswerTiming(time);
    for (const tookMs of [100, 200]) {
      const started = timing.start();
      time.at += tookMs;
      timing.recordDelivery(started);
    }
    await timing.padFrom(timing.start());
    assert.deepEqual(time.slept, [120]); // 100 + 0.2 × (200 − 100)

    const hung = timing.start();
    time.at += 60_000;
    timing.recordDelivery(hung);
    await timing.padFrom(timing.start());
    assert.equal(time.slept.at(-1), 5_000);
  });
});
