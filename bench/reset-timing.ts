// Measures how long POST /api/reset-request takes for known and unknown addresses (issue 13 point 11), on the
// test wiring with a real local SMTP receiver. Prints figures only; run with `npx tsx bench/reset-timing.ts`.
import { HOUR } from '../src/server/clock.js';
import { createTestApp } from '../test/support/app.js';

const ROUNDS = 40;

const steady = await createTestApp();
try {
  const known: number[] = [];
  const unknown: number[] = [];
  for (let round = 0; round < ROUNDS; round++) await steady.register(`known${round}@example.com`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [email, samples] of [
      [`known${round}@example.com`, known],
      [`unknown${round}@example.com`, unknown],
    ] as const) {
      steady.clock.advance(HOUR); // every throttle bucket is full again
      const client = steady.client();
      const started = performance.now();
      const answer = await client.post('/api/reset-request', { email });
      samples.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`reset-request answered ${answer.status}`);
    }
  }
  // The first rounds teach the estimate; the figures are over the rest.
  const settled = (samples: number[]) => samples.slice(5).sort((a, b) => a - b);
  const median = (samples: number[]) => samples[Math.floor(samples.length / 2)]!;
  const mean = (samples: number[]) => samples.reduce((sum, value) => sum + value, 0) / samples.length;
  const [k, u] = [settled(known), settled(unknown)];
  console.log(
    `reset-request known:   median ${median(k).toFixed(2)} ms, mean ${mean(k).toFixed(2)} ms (n=${k.length})`,
  );
  console.log(
    `reset-request unknown: median ${median(u).toFixed(2)} ms, mean ${mean(u).toFixed(2)} ms (n=${u.length})`,
  );
  console.log(
    `residual (known − unknown): median ${(median(k) - median(u)).toFixed(2)} ms, mean ${(mean(k) - mean(u)).toFixed(2)} ms`,
  );
} finally {
  await steady.close();
}
