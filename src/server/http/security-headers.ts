import type { FastifyInstance } from 'fastify';

/**
 * The security headers of every answer, computed once at start: @fastify/helmet rebuilt its middleware on each
 * request, which cost a sixth of a small API answer's CPU time (docs/decisions/0008-security-headers.md).
 * A strict Content-Security-Policy (our own origin only, no inline scripts, no framing), nosniff, no referrer,
 * cross-origin isolation of our resources, HSTS on https, and `Cache-Control: no-store` on every API answer so no
 * proxy or browser keeps private data.
 */
export function securityHeaders(secure: boolean): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Upgrading would break a plain-http installation on a LAN address, so only https sites ask for it.
    ...(secure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
  return {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    ...(secure && { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }),
  };
}

/** The headers of every API answer, also of those given before routing (http/error-handler.ts). */
export function apiHeaders(secure: boolean): Record<string, string> {
  return { ...securityHeaders(secure), 'cache-control': 'no-store' };
}

export function installSecurityHeaders(app: FastifyInstance, secure: boolean): void {
  const everywhere = securityHeaders(secure);
  const api = apiHeaders(secure);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApi(request.url) ? api : everywhere);
    done();
  });
}

function isApi(url: string): boolean {
  return url.startsWith('/api/') || url === '/api' || url.startsWith('/api?');
}
