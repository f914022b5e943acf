import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { PoolStats } from '../db/open.js';
import type { Mailer } from '../mail/mailer.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The `route` label when the path itself would not do: a family of files whose names change with each build. */
    metricsRoute?: string;
  }
}

/** What the code counts with; prom-client's Counter and Histogram fit it, and so does the no-op below. */
export interface CounterOf<Label extends string> {
  inc(labels: Record<Label, string>): void;
}
export interface HistogramOf<Label extends string> {
  observe(labels: Record<Label, string>, value: number): void;
}

/**
 * The process's Prometheus metrics, served at /metrics only when METRICS_TOKEN is set (ops/ops-routes.ts). Without
 * the token nothing is counted and prom-client is never loaded.
 */
export interface Metrics {
  /** The registry /metrics renders; null when metrics are off. */
  registry: Registry | null;
  httpRequests: CounterOf<'method' | 'route' | 'status'>;
  httpDuration: HistogramOf<'method' | 'route' | 'status'>;
  mails: CounterOf<'result'>;
  /** Reminders by result (sent, failed after the last retry) and channel (email, push). */
  reminders: CounterOf<'result' | 'channel'>;
  /** Node's own figures (event-loop delay, memory, handles); started once, when /metrics is served. */
  collectProcessMetrics(): void;
}

const ignore = { inc() {}, observe() {} };

/** Counts nothing: the metrics of a server without METRICS_TOKEN. */
export const NO_METRICS: Metrics = {
  registry: null,
  httpRequests: ignore,
  httpDuration: ignore,
  mails: ignore,
  reminders: ignore,
  collectProcessMetrics() {},
};

/** What the metrics read when scraped rather than count. */
export interface MetricSources {
  poolStats: () => PoolStats | null;
  /** The newest finished backup's time in ms (null before the first); absent when BACKUP_DIR is not set. */
  lastBackupAt?: () => Promise<number | null>;
}

/** Real metrics when they will be served (`enabled`), else NO_METRICS. */
export async function createMetrics(enabled: boolean, sources: MetricSources): Promise<Metrics> {
  if (!enabled) return NO_METRICS;
  const { prometheusMetrics } = await import('./prometheus-metrics.js');
  return prometheusMetrics(sources);
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

/**
 * Counts and times every answer by its route pattern (never the raw URL, which would make a series per id), or by
 * the route's `metricsRoute`; every path no route matches (404s, refused URLs) shares `unmatched`.
 */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  if (metrics.registry === null) return;
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.config.metricsRoute ?? request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
