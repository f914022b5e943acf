import { isValidEmail, normalizeEmail } from '../../common/email.js';
import { LIMITS } from '../../common/limits.js';
import { cleanName } from '../../common/names.js';
import { codePointLength } from '../../common/text.js';
import { badRequest } from '../http/errors.js';

/** Passwords count as given: eight spaces are a (weak) password, not an empty field. */
const UNTRIMMED_FIELDS = new Set(['password', 'old_password', 'new_password']);

/** Throws 400 `missing_field` naming the first of `fields` that is empty (or only white space). */
export function requireFilled(body: Record<string, unknown>, fields: string[]): void {
  for (const field of fields) {
    const value = body[field];
    const blank = typeof value !== 'string' || (UNTRIMMED_FIELDS.has(field) ? value === '' : value.trim() === '');
    if (blank) {
      throw badRequest('missing_field', `${field} must not be empty`, field);
    }
  }
}

/** Returns the normalized address or throws 400 `invalid_email`. */
export function checkedEmail(raw: string): string {
  if (!isValidEmail(raw)) throw badRequest('invalid_email', 'email is not a valid e-mail address', 'email');
  return normalizeEmail(raw);
}

/** Enforces 8 to 256 characters; the password itself is never trimmed or altered. */
export function checkNewPassword(password: string, field = 'password'): void {
  const length = codePointLength(password);
  if (length < LIMITS.passwordMin) {
    throw badRequest('password_too_short', `${field} must have at least ${LIMITS.passwordMin} characters`, field);
  }
  if (length > LIMITS.passwordMax) {
    throw badRequest('password_too_long', `${field} must have at most ${LIMITS.passwordMax} characters`, field);
  }
}

/**
 * Cleans a display name (one line, trimmed of what shows as nothing, decision 0205) and enforces its maximum length;
 * an empty result is allowed here.
 */
export function checkedDisplayName(raw: string): string {
  const name = cleanName(raw);
  if (codePointLength(name) > LIMITS.displayNameMax) {
    throw badRequest('name_too_long', `name must have at most ${LIMITS.displayNameMax} characters`, 'name');
  }
  return name;
}
