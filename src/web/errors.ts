/** Turns any failure into a translated message and, where the server's code points at one, the field it concerns. */
import { ApiError } from './api.js';
import { hasText, t, tp } from './i18n/index.js';

export interface ShownError {
  /** The form field the message belongs next to, or null for the form as a whole. */
  field: string | null;
  text: string;
}

/** Codes that always concern the same field (forms may rename it, e.g. password -> new_password). */
const FIELD_OF_CODE: Record<string, string> = {
  invalid_email: 'email',
  email_taken: 'email',
  password_too_short: 'password',
  password_too_long: 'password',
  name_too_long: 'name',
  wrong_password: 'old_password',
  invalid_amount: 'amount',
};

/** Codes whose English message starts with the offending field's name ("daily must be a number"). */
const FIELD_IN_MESSAGE = new Set(['missing_field', 'invalid_goal', 'invalid_input']);

export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return t('error.unknown');
  if (error.code === 'too_many_attempts') return tp('error.too_many_attempts', error.retryAfter ?? 60);
  const key = `error.${error.code}`;
  return hasText(key) ? t(key) : t('error.unknown');
}

/**
 * The message and its field among `fields`; `rename` maps the server's field names to the form's
 * (change-password calls the new password `new_password`).
 */
export function showError(error: unknown, fields: readonly string[], rename: Record<string, string> = {}): ShownError {
  const text = errorText(error);
  if (!(error instanceof ApiError)) return { field: null, text };
  let field: string | undefined = FIELD_OF_CODE[error.code];
  if (FIELD_IN_MESSAGE.has(error.code)) field = /^[a-z_]+/.exec(error.message)?.[0];
  if (field !== undefined) field = rename[field] ?? field;
  return { field: field !== undefined && fields.includes(field) ? field : null, text };
}
