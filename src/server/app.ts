import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { accountRoutes } from './accounts/routes.js';
import { adminRoutes } from './admin/routes.js';
import { installAuth } from './auth/plugin.js';
import type { AppDeps } from './deps.js';
import { goalRoutes } from './goals/routes.js';
import { installCsrfGuard } from './http/csrf.js';
import { frameworkErrorAnswer, installErrorHandling } from './http/error-handler.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installOpenApi } from './http/openapi.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { inviteRoutes } from './invites/routes.js';
import { resetRoutes } from './accounts/reset-routes.js';
import { webAppRoutes } from './web-app.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Named in the OpenAPI document's `info.version`. */
export const APP_VERSION = '0.1.0';

/** The whole service; `main.ts` listens on it, tests call `inject` on it. */
export async function buildApp(deps: AppDeps, loggerInstance?: FastifyBaseLogger): Promise<FastifyInstance> {
  const app = Fastify({
    ...(loggerInstance ? { loggerInstance } : { logger: false }),
    // Only the listed proxies may name the client; an empty list trusts nobody (decision 0013).
    trustProxy: deps.config.trustProxy.length > 0 ? deps.config.trustProxy.join(',') : false,
    bodyLimit: BODY_LIMIT_BYTES,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Malformed URLs are refused before routing; this keeps even that answer in our `{ error, code }` shape.
    frameworkErrors: frameworkErrorAnswer(deps.config.secureCookies),
    // Types are checked, never coerced: "5" is not a number (spec: no type coercion).
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installErrorHandling(app);
  installJsonBodyParser(app);
  installSecurityHeaders(app, deps.config.secureCookies);
  installCsrfGuard(app, deps.config.baseUrl);
  await app.register(cookie);
  installAuth(app, deps);
  // Before every route: the document is built from the routes registered after it.
  await installOpenApi(app, APP_VERSION);

  await app.register(accountRoutes(deps));
  await app.register(resetRoutes(deps));
  await app.register(inviteRoutes(deps));
  await app.register(goalRoutes(deps));
  await app.register(adminRoutes(deps));
  await app.register(webAppRoutes(deps));
  return app;
}
