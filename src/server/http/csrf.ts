import type { FastifyInstance } from 'fastify';
import { forbidden, HttpError } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery guard for every state-changing request:
 * - a browser's `Sec-Fetch-Site: cross-site` or an `Origin` other than BASE_URL's is refused with 403;
 * - a request that carries a body must say `application/json` (415 otherwise), which a plain HTML form cannot.
 * SameSite=Lax cookies are the second line behind this. See docs/decisions/0006-csrf.md.
 */
export function installCsrfGuard(app: FastifyInstance, baseUrl: string): void {
  const allowedOrigin = new URL(baseUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw forbidden('cross_site_request', 'Cross-site requests are not allowed');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== allowedOrigin) {
      throw forbidden('foreign_origin', 'Requests from another origin are not allowed');
    }
    if (hasBody(request.headers) && !isJson(request.headers['content-type'])) {
      throw new HttpError(415, 'unsupported_media_type', 'Request body must be application/json');
    }
  });
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['content-type'] !== undefined || headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
}
