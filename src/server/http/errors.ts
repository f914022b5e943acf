import type { ErrorCode } from '../../common/contract/error-codes.js';

export type { ErrorBody } from '../../common/contract/errors.js';

/**
 * A failure the client caused or should know about. Routes and stores throw these; the error handler turns
 * them into `{ error, code, field? }` with the given status. `error` is English; the web app translates by `code`
 * and puts the message next to `field` (decision 0081).
 */
export class HttpError extends Error {
  /** Extra response headers, e.g. `Retry-After` on 429. */
  readonly headers: Record<string, string>;
  /** The input the refusal is about: `daily`, `goals[1].daily`, `sets.2026-01-15`. */
  readonly field: string | undefined;
  /** The key of the object at `field` the refusal is about (an import's `sets` date), cut to 100 characters. */
  readonly key: string | undefined;

  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; field?: string; key?: string } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.headers = options.headers ?? {};
    this.field = options.field;
    this.key = options.key === undefined ? undefined : shownKey(options.key);
  }
}

const KEY_SHOWN_MAX = 100;

/** A key as answered: whole when short, else its first 100 characters and "…" (a key may be megabytes long). */
function shownKey(key: string): string {
  // At most two code units a character: the first 200 units hold the first 100 characters, whole.
  const start = Array.from(key.slice(0, 2 * KEY_SHOWN_MAX));
  if (key.length <= 2 * KEY_SHOWN_MAX && start.length <= KEY_SHOWN_MAX) return key;
  return `${start.slice(0, KEY_SHOWN_MAX).join('')}…`;
}

export const badRequest = (code: ErrorCode, message: string, field?: string) =>
  new HttpError(400, code, message, field === undefined ? {} : { field });
export const unauthorized = (message = 'Not logged in') => new HttpError(401, 'unauthenticated', message);
/** A login of an account deleted since: told only to whoever holds its token (decision 0198). */
export const accountDeleted = () => new HttpError(401, 'account_deleted', 'This account was deleted');
export const forbidden = (code: ErrorCode, message: string) => new HttpError(403, code, message);
export const notFound = (code: ErrorCode, message: string, field?: string) =>
  new HttpError(404, code, message, field === undefined ? {} : { field });
export const conflict = (code: ErrorCode, message: string, field?: string) =>
  new HttpError(409, code, message, field === undefined ? {} : { field });

/** A 503 the client may retry in a moment, as Retry-After says. */
const tryAgainShortly = (code: ErrorCode, message: string) =>
  new HttpError(503, code, `${message}, please try again shortly`, { headers: { 'retry-after': '5' } });

/** The database cannot serve now (unreachable, busy beyond its timeout, disk full): retry in a moment. */
export const databaseUnavailable = () =>
  tryAgainShortly('database_unavailable', 'The database is unavailable right now');

/** The server is stopping (a restart or deploy): the next process answers in a moment. */
export const shuttingDown = () => tryAgainShortly('shutting_down', 'The server is shutting down');

export function tooManyRequests(retryAfterSeconds: number, message = 'Too many attempts, try again later'): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, 'too_many_attempts', `${message} (in ${seconds} s)`, {
    headers: { 'retry-after': String(seconds) },
  });
}
