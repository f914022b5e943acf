/**
 * A failure the client caused or should know about. Routes and stores throw these; the error handler turns
 * them into `{ error, code }` with the given status. `error` is English; the web app translates by `code`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. `Retry-After` on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (code: string, message: string) => new HttpError(400, code, message);
export const unauthorized = (message = 'Not logged in') => new HttpError(401, 'unauthenticated', message);
export const forbidden = (code: string, message: string) => new HttpError(403, code, message);
export const notFound = (code: string, message: string) => new HttpError(404, code, message);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);

/** The database cannot serve now (unreachable, busy beyond its timeout, disk full): retry in a moment. */
export const databaseUnavailable = () =>
  new HttpError(503, 'database_unavailable', 'The database is unavailable right now, please try again shortly', {
    'retry-after': '5',
  });

export function tooManyRequests(retryAfterSeconds: number, message = 'Too many attempts, try again later'): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, 'too_many_attempts', `${message} (in ${seconds} s)`, { 'retry-after': String(seconds) });
}

export interface ErrorBody {
  error: string;
  code: string;
}
