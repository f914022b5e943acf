/**
 * Turns any failure into a translated message and the field it concerns. Both come from the server's `code` and
 * `field` (or a FieldProblem the form found first), never from the English message (decision 0081).
 */
import type { ErrorCode } from '../common/contract/error-codes.js';
import { IMPORT_MAX_MB } from '../common/contract/export-identity.js';
import { GOAL_LIMITS } from '../common/goal.js';
import { LIMITS } from '../common/limits.js';
import { codePointLength } from '../common/text.js';
import { ApiError, type ClientErrorCode } from './api.js';
import { formatNumber, hasText, t, tp } from './i18n/index.js';
import type { TextKey } from './i18n/types.js';

/**
 * A problem the form found before asking the server: the field it concerns, the code the server would send, and a
 * text of its own where the code's would say too little (an export from a newer Steady is `invalid_import` too).
 */
export class FieldProblem extends Error {
  constructor(
    readonly field: string,
    readonly code: ErrorCode,
    readonly text?: TextKey,
  ) {
    super(code);
    this.name = 'FieldProblem';
  }
}

/**
 * Refuses a value longer than the contract's `max` (characters after trimming, as the server counts) with the
 * code the server would answer, so nothing is cut and the reason shows next to the field.
 */
export function checkLength(field: string, value: string, max: number, code: ErrorCode): void {
  if (codePointLength(value.trim()) > max) throw new FieldProblem(field, code);
}

/**
 * A failure and where it belongs: its field, or null for the form as a whole. The failure itself is kept (not its
 * text), so the message follows a language switch.
 */
export interface ShownError {
  field: string | null;
  failure: unknown;
}

/** The limits the texts name (`{goalNameMax}` ...), so a text never states a number the contract does not. */
export const LIMIT_VARS = {
  ...LIMITS,
  dailyMax: GOAL_LIMITS.dailyMax,
  amountMax: GOAL_LIMITS.amountAbsMax,
  goalsPerUserMax: GOAL_LIMITS.goalsPerUserMax,
  importMaxMb: IMPORT_MAX_MB,
};

/**
 * The translated reason: `error.<code>.<field>` where the language has a text for that pair (e.g. why `daily` was
 * refused), else `error.<code>`.
 */
export function errorText(error: unknown): string {
  if (error instanceof FieldProblem) return error.text ? t(error.text, LIMIT_VARS) : codeText(error.code, error.field);
  if (!(error instanceof ApiError)) return t('error.unknown');
  if (error.code === 'too_many_attempts') return tp('error.too_many_attempts', error.retryAfter ?? 60);
  // Steady's 413 names the route's limit (decision 0187); a proxy's does not, and keeps the general text.
  if (error.code === 'body_too_large' && error.maxBytes !== null)
    return t('error.bodyLimit', { size: size(error.maxBytes) });
  return codeText(error.code, error.field);
}

/** A body limit as people say it, in binary units like the import's "20 MB": 16 KB, 1 MB; never more than it is. */
function size(bytes: number): string {
  const megabytes = bytes / 1024 / 1024;
  return megabytes >= 1 ? `${formatNumber(Math.floor(megabytes))} MB` : `${formatNumber(Math.floor(bytes / 1024))} KB`;
}

function codeText(code: ClientErrorCode, field: string | null): string {
  const specific = `error.${code}.${field ?? ''}`;
  if (field !== null && hasText(specific)) return t(specific, LIMIT_VARS);
  const general = `error.${code}`;
  return hasText(general) ? t(general, LIMIT_VARS) : t('error.unknown');
}

/**
 * The failure and its field among `fields` (the form's input ids); `rename` maps the server's field names to the
 * form's where they differ. A field the form does not show leaves the message above the form.
 */
export function showError(error: unknown, fields: readonly string[], rename: Record<string, string> = {}): ShownError {
  let field: string | null = null;
  if (error instanceof FieldProblem) field = error.field;
  else if (error instanceof ApiError) field = error.field;
  if (field !== null) field = rename[field] ?? field;
  return { field: field !== null && fields.includes(field) ? field : null, failure: error };
}
