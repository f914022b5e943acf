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

  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; field?: string } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.headers = options.headers ?? {};
    this.field = options.field;
  }
}

export const badRequest = (code: ErrorCode, message: string, field?: string) =>
  new HttpError(400, code, message, field === undefined ? {} : { field });
export const unauthorized = (message = 'Not logged in') => new HttpError(401, 'unauthenticated', message);
export const forbidden = (code: ErrorCode, message: string) => new HttpError(403, code, message);
export const notFound = (code: ErrorCode, message: string, field?: string) =>
  new HttpError(404, code, message, field === undefined ? {} : { field });
export const conflict = (code: ErrorCode, message: string, field?: string) =>
  new HttpError(409, code, message, field === undefined ? {} : { field });

/** The database cannot serve now (unreachable, busy beyond its timeout, disk full): retry in a moment. */
export const databaseUnavailable = () =>
  new HttpError(503, 'database_unavailable', 'The database is unavailable right now, please try again shortly', {
    headers: { 'retry-after': '5' },
  });

export function tooManyRequests(retryAfterSeconds: number, message = 'Too many attempts, try again later'): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, 'too_many_attempts', `${message} (in ${seconds} s)`, {
    headers: { 'retry-after': String(seconds) },
  });
}
