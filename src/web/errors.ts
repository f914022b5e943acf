/** Turns any failure into a translated message and, where the server's code points at one, the field it concerns. */
import { ApiError } from './api.js';
import { hasText, t, tp } from './i18n/index.js';

/** A problem the form found before asking the server: the field it concerns and a server-style error code. */
export class FieldProblem extends Error {
  constructor(
    readonly field: string,
    readonly code: string,
  ) {
    super(code);
    this.name = 'FieldProblem';
  }
}

/**
 * A failure and where it belongs: its field, or null for the form as a whole. The failure itself is kept (not its
 * text), so the message follows a language switch.
 */
export interface ShownError {
  field: string | null;
  failure: unknown;
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

/** Codes whose English message from the server starts with the offending field's name ("daily must be a number"). */
const FIELD_IN_MESSAGE = new Set(['missing_field', 'invalid_goal', 'invalid_input']);

export function errorText(error: unknown): string {
  if (error instanceof FieldProblem) return codeText(error.code);
  if (!(error instanceof ApiError)) return t('error.unknown');
  if (error.code === 'too_many_attempts') return tp('error.too_many_attempts', error.retryAfter ?? 60);
  return codeText(error.code);
}

function codeText(code: string): string {
  const key = `error.${code}`;
  return hasText(key) ? t(key) : t('error.unknown');
}

/**
 * The failure and its field among `fields`; `rename` maps the server's field names to the form's
 * (change-password calls the new password `new_password`).
 */
export function showError(error: unknown, fields: readonly string[], rename: Record<string, string> = {}): ShownError {
  let field: string | undefined;
  if (error instanceof FieldProblem) field = error.field;
  else if (error instanceof ApiError) {
    field = FIELD_OF_CODE[error.code];
    if (FIELD_IN_MESSAGE.has(error.code)) field = /^[a-z_]+/.exec(error.message)?.[0];
    if (field !== undefined) field = rename[field] ?? field;
  }
  return { field: field !== undefined && fields.includes(field) ? field : null, failure: error };
}
