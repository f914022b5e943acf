/**
 * Every error code the server answers, and the error body. The web app's translation tables are typed by
 * `ErrorCode`, so a code added here without its texts in src/web/i18n/{en,de,pl}.ts fails the type check.
 */
import { type Static, Type } from 'typebox';

export const ERROR_CODES = [
  // Input
  'bad_request',
  'invalid_input',
  'invalid_json',
  'invalid_body',
  'body_too_large',
  'unsupported_media_type',
  'missing_field',
  'invalid_email',
  'password_too_short',
  'password_too_long',
  'name_too_long',
  'note_too_long',
  'invalid_locale',
  'invalid_goal',
  'invalid_date',
  'invalid_amount',
  'too_many_dates',
  'too_many_amounts',
  // Accounts, invites, resets
  'invalid_credentials',
  'wrong_password',
  'email_taken',
  'invite_invalid',
  'invite_used',
  'invite_expired',
  'reset_invalid',
  'reset_expired',
  // Access
  'unauthenticated',
  'forbidden',
  'cross_site_request',
  'foreign_origin',
  'too_many_attempts',
  // Missing things
  'not_found',
  'goal_not_found',
  'amount_not_found',
  // Server side
  'mail_failed',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Every refusal: an English message (for logs and API users), a stable code (what clients act on) and, when the
 * refusal is about one input, the field it names: body fields by name (`daily`), nested ones by path
 * (`goals[1].daily`, `sets.2026-01-15`), path parameters by their name (`date`). See docs/decisions/0081.
 */
/** A path of keys and indexes as an error's `field`: `['goals', 1, 'daily']` is `goals[1].daily`. */
export function fieldPath(segments: readonly (string | number)[]): string {
  return segments
    .map((part, index) => (typeof part === 'number' || /^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'human-readable English message; its wording is not part of the contract' }),
    code: Type.Enum(ERROR_CODES, { description: 'stable code; clients translate and decide by it' }),
    field: Type.Optional(Type.String({ description: 'the input the refusal is about, e.g. `daily` or `goals[1].daily`' })),
  },
  { additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBody>;
