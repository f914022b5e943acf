import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { PoolStats } from '../db/open.js';
import type { Mailer } from '../mail/mailer.js';

/**
 * The process's Prometheus metrics, one registry per app (tests build many apps in one process). Served at
 * /metrics only when METRICS_TOKEN is set (ops/metrics-routes.ts); counting costs next to nothing, so it always runs.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  mails: Counter<'result'>;
  /** Reminders by result (sent, failed after the last retry) and channel (email, push). */
  reminders: Counter<'result' | 'channel'>;
  /** Node's own figures (event-loop delay, memory, handles); started once, when /metrics is served. */
  collectProcessMetrics(): void;
}

export function createMetrics(poolStats: () => PoolStats | null): Metrics {
  const registry = new Registry();
  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const mails = new Counter({
    name: 'steady_mails_total',
    help: 'Mails handed to the mail server (or the outbox), by result: sent or failed',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const reminders = new Counter({
    name: 'steady_reminders_total',
    help: 'Reminders, by result (sent, or failed after the last retry) and channel (email, push)',
    labelNames: ['result', 'channel'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'steady_db_pool_connections',
    help: 'PostgreSQL pool connections by state: total, idle, and requests waiting for one (absent on SQLite)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = poolStats();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  let collecting = false;
  return {
    registry,
    httpRequests,
    httpDuration,
    mails,
    reminders,
    collectProcessMetrics() {
      if (collecting) return;
      collecting = true;
      // Includes nodejs_eventloop_lag_seconds and its percentiles (perf_hooks' event-loop delay monitor).
      collectDefaultMetrics({ register: registry });
    },
  };
}

/** Counts every mail by its outcome; the mailer's own behaviour is unchanged. */
export function countingMailer(mailer: Mailer, mails: Metrics['mails']): Mailer {
  return {
    async send(message) {
      try {
        await mailer.send(message);
        mails.inc({ result: 'sent' });
      } catch (error) {
        mails.inc({ result: 'failed' });
        throw error;
      }
    },
    verify: () => mailer.verify(),
  };
}

/** Counts and times every answer by its route pattern (never the raw URL, which would make a series per id). */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
