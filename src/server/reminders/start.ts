import type { AppDeps } from '../deps.js';
import { serverTimeZone } from '../goals/start.js';
import { type ReminderLog, ReminderScheduler } from './scheduler.js';

/** The reminder scheduler of this process; every process runs one, the database decides who sends what. */
export function createReminderScheduler(
  deps: Pick<AppDeps, 'config' | 'db' | 'clock' | 'mailer' | 'push' | 'metrics' | 'secretKey'>,
  log: ReminderLog,
): ReminderScheduler {
  return new ReminderScheduler({
    db: deps.db,
    clock: deps.clock,
    mailer: deps.mailer,
    push: deps.push,
    metrics: deps.metrics,
    baseUrl: deps.config.baseUrl,
    secretKey: deps.secretKey,
    defaultTimeZone: serverTimeZone(),
    log,
  });
}
