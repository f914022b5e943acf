/** E-mail rules shared by server and web app. */

import { LIMITS } from './limits.js';

/**
 * A pragmatic check (the WHATWG `input type=email` rule plus a dot in the domain): one `@`, a local part of
 * printable characters, and a domain of dot-separated labels. RFC 5322 allows far more, but nobody types it.
 */
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isValidEmail(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length <= LIMITS.emailMax && EMAIL_PATTERN.test(trimmed);
}

/** Addresses are compared trimmed and case-insensitively everywhere, so they are stored this way. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
