import os from 'node:os';

/**
 * How many password hashes run at once: one per core. Each argon2 hash keeps a core busy for ~20 ms and holds
 * 19 MiB; more at once only share the same cores, slowing every login and the event loop while multiplying that
 * memory (docs/decisions/0113-logins-off-the-event-loop.md).
 */
export const PASSWORD_HASHES_AT_ONCE = Math.max(1, Math.min(os.availableParallelism(), 8));

/**
 * Sizes libuv's thread pool, which runs the hashes (@node-rs/argon2's async tasks) beside file and DNS work: room
 * for every hash at once plus two threads, so a burst of logins never makes a file read wait behind it. libuv reads
 * UV_THREADPOOL_SIZE once, when the pool first starts, so `main.ts` imports this module before anything else; an
 * operator's own value wins.
 */
export function sizeThreadPool(env: NodeJS.ProcessEnv = process.env): void {
  env.UV_THREADPOOL_SIZE ??= String(PASSWORD_HASHES_AT_ONCE + 2);
}

sizeThreadPool();
