import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricSources, Metrics } from './metrics.js';

/**
 * Metrics on a prom-client registry, one per app (tests build many apps in one process). Loaded only when
 * METRICS_TOKEN is set: prom-client and its default metrics cost a twenty-fifth of the start time (decision 0059).
 */
export function prometheusMetrics({ poolStats, lastBackupAt }: MetricSources): Metrics {
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
  if (lastBackupAt) {
    // Read from the database at each scrape: with several processes, the one that wrote the backup may not be the
    // one scraped. 0 before the first backup, so an alert on its age fires for a backup that never ran (0197).
    new Gauge({
      name: 'steady_backup_last_success_timestamp_seconds',
      help: 'When the newest scheduled backup into BACKUP_DIR finished (Unix time; 0 before the first)',
      registers: [registry],
      async collect() {
        // During a database outage the gauge keeps its last value: /metrics must still answer then.
        const last = await lastBackupAt().catch(() => undefined);
        if (last !== undefined) this.set(last === null ? 0 : Math.floor(last / 1000));
      },
    });
  }
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
