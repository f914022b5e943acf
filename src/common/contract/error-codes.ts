/**
 * Every error code the server answers. The web app's translation tables are typed by `ErrorCode`, so a code added
 * here without its texts in src/web/i18n/{en,de,pl}.ts fails the type check; `HttpError` takes only these codes.
 */
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
  'too_many_goals',
  'goal_too_large',
  'invalid_entry_id',
  'invalid_import',
  'invalid_idempotency_key',
  'invalid_timezone',
  'invalid_reminder_time',
  'invalid_reminder_channel',
  'invalid_push_subscription',
  'invalid_push_endpoint',
  // Accounts, invites, resets
  'invalid_credentials',
  'wrong_password',
  'email_taken',
  'invite_invalid',
  'invite_used',
  'invite_expired',
  'reset_invalid',
  'reset_expired',
  'admin_email_needs_operator_invite',
  // Access
  'unauthenticated',
  'account_deleted',
  'forbidden',
  'cross_site_request',
  'foreign_origin',
  'too_many_attempts',
  // Missing things
  'not_found',
  'goal_not_found',
  'amount_not_found',
  'invite_not_found',
  // Conflicts
  'entry_id_conflict',
  'idempotency_key_reused',
  // Server side
  'mail_failed',
  'database_unavailable',
  'shutting_down',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** A path of keys and indexes as an error's `field`: `['goals', 1, 'daily']` is `goals[1].daily`. */
export function fieldPath(segments: readonly (string | number)[]): string {
  return segments
    .map((part, index) =>
      typeof part === 'number' || /^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`,
    )
    .join('');
}
