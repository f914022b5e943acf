/** E-mail rules shared by server and web app. */

import { LIMITS } from './limits.js';

const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const ATOM = "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+";

/**
 * A pragmatic check (the WHATWG `input type=email` rule plus a dot in the domain): one `@`, a local part of
 * printable characters, and a domain of dot-separated labels. RFC 5322 allows far more, but nobody types it.
 * The local part is RFC 5321's dot-string: no dot first, last or twice in a row. Mail servers refuse anything
 * else ("501 Bad recipient address syntax"), so such an address could never receive its reset mail (decision 0194).
 */
const EMAIL_PATTERN = new RegExp(`^(?=[^@]{1,64}@)${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`);

/**
 * The rule before decision 0194, which let dots stand anywhere in the local part: accounts registered then may
 * hold such an address, and ADMIN_EMAIL names an account, so it is checked against this one.
 */
const ACCOUNT_EMAIL_PATTERN = new RegExp(`^[a-zA-Z0-9.!#$%&'*+/=?^_\`{|}~-]{1,64}@${LABEL}(?:\\.${LABEL})+$`);

export function isValidEmail(value: string): boolean {
  return matches(EMAIL_PATTERN, value);
}

/** True for every address an account may have, including those registered before decision 0194. */
export function isAccountEmail(value: string): boolean {
  return matches(ACCOUNT_EMAIL_PATTERN, value);
}

function matches(pattern: RegExp, value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length <= LIMITS.emailMax && pattern.test(trimmed);
}

/** Addresses are compared trimmed and case-insensitively everywhere, so they are stored this way. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
