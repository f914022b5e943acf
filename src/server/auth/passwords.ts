import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

/** OWASP / ASVS 5.0 parameters; the library's default algorithm is argon2id (its hashes start `$argon2id$`). */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, for unknown e-mail addresses at login, so the answer's
 * timing does not tell whether an address is registered.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('steady-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}

/** Length counted in code points, so an emoji is one character as a user would count it. */
export function passwordLength(password: string): number {
  return [...password].length;
}
