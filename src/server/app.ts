import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { accountRoutes } from './accounts/routes.js';
import { adminRoutes } from './admin/routes.js';
import { dataRoutes } from './data/routes.js';
import { installAuth } from './auth/plugin.js';
import type { AppDeps } from './deps.js';
import { goalRoutes } from './goals/routes.js';
import { goalLayoutRoutes } from './goals/layout-routes.js';
import { SMALL_BODY_LIMIT_BYTES } from './http/body-limits.js';
import { installCsrfGuard } from './http/csrf.js';
import { frameworkErrorAnswer, installErrorHandling } from './http/error-handler.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installOpenApi } from './http/openapi.js';
import { AJV_OPTIONS, installSchemaCompilerGate, lazySchemaCompilers } from './http/lazy-schema-compilers.js';
import { echoRequestId, requestLogOptions } from './http/request-log.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { inviteRoutes } from './invites/routes.js';
import { inviteRevokeRoutes } from './invites/revoke-routes.js';
import { installRequestMetrics } from './ops/metrics.js';
import { opsRoutes } from './ops/ops-routes.js';
import { pushRoutes } from './push/routes.js';
import { reminderRoutes } from './reminders/routes.js';
import { refuseRequestsWhileClosing } from './shutdown.js';
import { resetRoutes } from './accounts/reset-routes.js';
import { webAppRoutes } from './web-app.js';

/** Named in the OpenAPI document's `info.version`. */
export const APP_VERSION = '0.1.0';

/**
 * How long a client may take to send a whole request, and how long a connection may sit idle. Fastify's default
 * of 0 also switches off Node's own limit, so a body that never finishes would hold its socket for good
 * (docs/decisions/0061-slow-clients.md).
 */
export const SLOW_CLIENT_TIMEOUT_MS = 30_000;

export interface BuildOptions {
  /** Tests shorten it; the server keeps SLOW_CLIENT_TIMEOUT_MS. */
  slowClientTimeoutMs?: number;
}

/** The whole service; `main.ts` listens on it, tests call `inject` on it. */
export async function buildApp(
  deps: AppDeps,
  loggerInstance?: FastifyBaseLogger,
  { slowClientTimeoutMs = SLOW_CLIENT_TIMEOUT_MS }: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(loggerInstance ? { loggerInstance } : { logger: false }),
    ...requestLogOptions,
    // Only the listed proxies may name the client; an empty list trusts nobody (decision 0013).
    trustProxy: deps.config.trustProxy.length > 0 ? deps.config.trustProxy.join(',') : false,
    bodyLimit: SMALL_BODY_LIMIT_BYTES,
    // Whole request (headers and body) within the limit, else 408; a connection silent that long is closed.
    requestTimeout: slowClientTimeoutMs,
    connectionTimeout: slowClientTimeoutMs,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Its fixed body lacks our `code` and Retry-After; refuseRequestsWhileClosing answers instead (decision 0196).
    return503OnClosing: false,
    // Malformed URLs are refused before routing; this keeps even that answer in our `{ error, code }` shape.
    frameworkErrors: frameworkErrorAnswer(deps.config.secureCookies),
    // Each route's validators and serializers are compiled on its first use, not at start (decision 0059).
    schemaController: { compilersFactory: lazySchemaCompilers },
    ajv: { customOptions: AJV_OPTIONS },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installSchemaCompilerGate(app);
  installErrorHandling(app);
  echoRequestId(app);
  installRequestMetrics(app, deps.metrics);
  installJsonBodyParser(app);
  installSecurityHeaders(app, deps.config.secureCookies);
  refuseRequestsWhileClosing(app);
  installCsrfGuard(app, deps.config.baseUrl);
  await app.register(cookie);
  installAuth(app, deps);
  // Before every route: the document is built from the routes registered after it.
  await installOpenApi(app, APP_VERSION);

  await app.register(accountRoutes(deps));
  await app.register(resetRoutes(deps));
  await app.register(inviteRoutes(deps));
  await app.register(goalRoutes(deps));
  await app.register(goalLayoutRoutes(deps));
  await app.register(adminRoutes(deps));
  await app.register(dataRoutes(deps));
  await app.register(inviteRevokeRoutes(deps));
  await app.register(reminderRoutes(deps));
  await app.register(pushRoutes(deps));
  await app.register(opsRoutes(deps));
  await app.register(webAppRoutes(deps));
  return app;
}
