import os from 'node:os';

/**
 * libuv's thread pool runs the password hashes (@node-rs/argon2's async tasks) beside file and DNS work. Its size is
 * read once, when the pool starts, and under ES modules Node starts it while loading the entry file, before any of
 * our code runs: only the environment the process starts with (`UV_THREADPOOL_SIZE`) sizes it; otherwise it has 4.
 */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size >= 1 ? Math.min(size, 1024) : 4;
}

/**
 * How many password hashes run at once: one per core, but never more than the pool's size minus two, so file and
 * DNS work always find a thread. Each argon2 hash keeps a core busy for ~20 ms and holds 19 MiB; more at once
 * would only share the same cores, slowing every login and the event loop while multiplying that memory
 * (docs/decisions/0113-logins-off-the-event-loop.md).
 */
export function hashesAtOnce(cores: number, poolSize: number): number {
  return Math.max(1, Math.min(cores, poolSize - 2));
}

export const PASSWORD_HASHES_AT_ONCE = hashesAtOnce(os.availableParallelism(), threadPoolSize());
