import type { Kysely } from 'kysely';
import { HOUR } from '../clock.js';
import { randomToken, sha256Hex } from '../auth/tokens.js';
import type { Database } from '../db/schema.js';
import { insertReset } from './reset-store.js';

/** Spec §8: a reset link is valid for 24 hours. */
export const RESET_LIFETIME_MS = 24 * HOUR;

export function resetLink(baseUrl: string, selector: string, token: string): string {
  return `${baseUrl}/?reset_selector=${encodeURIComponent(selector)}&reset_token=${encodeURIComponent(token)}`;
}

/**
 * Stores a new reset link for the user and returns it with its selector: the mailed link of
 * `POST /api/reset-request` and the operator's `steady reset-link` alike.
 */
export async function createResetLink(db: Kysely<Database>, baseUrl: string, userId: number, now: number) {
  const selector = randomToken(16);
  const token = randomToken(32);
  const expiresAt = now + RESET_LIFETIME_MS;
  await insertReset(db, { selector, tokenHash: sha256Hex(token), userId, now, expiresAt });
  return { selector, link: resetLink(baseUrl, selector, token), expiresAt };
}
