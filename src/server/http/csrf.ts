import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, HttpError } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's authority is a signed token in its URL, never a cookie (the reminder mail's one-click link, which
     * mail clients POST as a form, RFC 8058): there is nothing to forge, so the guard lets it through.
     */
    signedLink?: boolean;
  }
}

/**
 * Cross-site request forgery guard for every state-changing request:
 * - a browser's `Sec-Fetch-Site: cross-site` or an `Origin` other than BASE_URL's is refused with 403;
 * - a request that carries a body must say `application/json` (415 otherwise), which a plain HTML form cannot.
 * SameSite=Lax cookies are the second line behind this. See docs/decisions/0006-csrf.md.
 */
export function installCsrfGuard(app: FastifyInstance, baseUrl: string): void {
  const allowedOrigins = new Set(acceptedOrigins(baseUrl));
  // A callback hook: the reads and other safe requests, most of the traffic, pass without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    done(forgeryRefusal(request, allowedOrigins));
  });
}

/** Why a state-changing request is refused, or undefined when it may go on. */
function forgeryRefusal(request: FastifyRequest, allowedOrigins: Set<string>): HttpError | undefined {
  if (request.routeOptions.config?.signedLink === true) return undefined;
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    return forbidden('cross_site_request', 'Cross-site requests are not allowed');
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedOrigins.has(origin)) {
    return forbidden('foreign_origin', 'Requests from another origin are not allowed');
  }
  if (hasBody(request.headers) && !isJson(request.headers['content-type'])) {
    return new HttpError(415, 'unsupported_media_type', 'Request body must be application/json');
  }
  return undefined;
}

/**
 * BASE_URL's origin; for a `localhost` BASE_URL (the default) also the loopback addresses of the same port, which
 * name the same server on the same machine: a newcomer who opens http://127.0.0.1:3000 can log in (decision 0054).
 */
export function acceptedOrigins(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  if (url.hostname !== 'localhost') return [url.origin];
  const port = url.port ? `:${url.port}` : '';
  return [url.origin, `${url.protocol}//127.0.0.1${port}`, `${url.protocol}//[::1]${port}`];
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return (
    headers['content-type'] !== undefined ||
    headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '0')
  );
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
}
