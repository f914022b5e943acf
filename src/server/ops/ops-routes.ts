import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { AppDeps } from '../deps.js';
import { databaseUnavailable, unauthorized } from '../http/errors.js';

/** How long /readyz waits for the database before answering 503. */
export const READY_TIMEOUT_MS = 1_000;

/**
 * Endpoints for the operator's tools, outside the API contract (docs/api-logging.md):
 * - `GET /healthz`: the process runs (never touches the database), for restarting a hung process;
 * - `GET /readyz`: the database answers within 1 s, for load balancers;
 * - `GET /metrics`: Prometheus text, only when METRICS_TOKEN is set (404 otherwise) and only with that bearer token.
 */
export const opsRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    app.get('/healthz', { config: { auth: 'none' } }, async () => ({ status: 'ok' }));

    app.get('/readyz', { config: { auth: 'none' } }, async () => {
      if (!(await databaseAnswers(deps, READY_TIMEOUT_MS))) throw databaseUnavailable();
      return { status: 'ok' };
    });

    const token = deps.config.metricsToken;
    if (token !== null) installMetricsRoute(app, deps, token);
  };

async function databaseAnswers(deps: AppDeps, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const probe = sql`select 1`.execute(deps.db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function installMetricsRoute(app: FastifyInstance, deps: AppDeps, token: string): void {
  const { metrics } = deps;
  const { registry } = metrics;
  if (registry === null) throw new Error('METRICS_TOKEN is set but the metrics were not created');
  metrics.collectProcessMetrics();
  const expected = sha256(token);
  app.get('/metrics', { config: { auth: 'none' } }, async (request, reply) => {
    // The scheme's name is case-insensitive (RFC 9110 §11.1): scrapers send `bearer` too. Hashes have equal
    // length, so the comparison of the token takes the same time whatever was sent.
    const [, sent = ''] = /^bearer (.*)$/is.exec(request.headers.authorization ?? '') ?? [];
    if (!timingSafeEqual(sha256(sent), expected)) {
      throw unauthorized('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    return reply
      .header('cache-control', 'no-store')
      .type(registry.contentType)
      .send(await registry.metrics());
  });
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
