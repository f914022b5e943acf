import { ConcurrencyLimit } from '../concurrency-limit.js';
import { PASSWORD_HASHES_AT_ONCE } from '../thread-pool.js';

/** The native hasher loads with the first password checked, not with the server (decision 0059). */
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/** OWASP / ASVS 5.0 parameters; the library's default algorithm is argon2id (its hashes start `$argon2id$`). */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * The hashes run on libuv's thread pool, never on the event loop; at most PASSWORD_HASHES_AT_ONCE run together, so a
 * burst of logins costs their memory once per core, not once per login in flight, and leaves the pool's other
 * threads to file and DNS work (docs/decisions/0113-logins-off-the-event-loop.md).
 */
const hashQueue = new ConcurrencyLimit(PASSWORD_HASHES_AT_ONCE);

export function hashPassword(password: string): Promise<string> {
  return hashQueue.run(async () => (await loadArgon2()).hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashQueue.run(async () => (await loadArgon2()).verify(passwordHash, password));
  } catch {
    return false;
  }
}

/**
 * A hash of a random, forgotten password, made with ARGON2_OPTIONS (a test keeps the two in step). Fixed rather
 * than computed on first use, so even the first unknown address costs one verification and no extra hashing.
 */
export const DUMMY_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$NUK59oLzXFxxNyq50aAY1w$OWE1ULr33Qbr3jQiGK+rscCumPJ0I0ydx4zbFZ1c9uo';

/**
 * Spends the same time as checking a real password, for unknown e-mail addresses at login, so the answer's
 * timing does not tell whether an address is registered.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(DUMMY_PASSWORD_HASH, password);
  return false;
}
