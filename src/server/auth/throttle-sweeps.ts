import { HOUR } from '../clock.js';
import type { AppDeps } from '../deps.js';
import { WallClockPoller } from '../wall-clock-poller.js';
import { sweepRefilledBuckets } from './throttle.js';

/** How often the refilled throttle buckets are dropped; between sweeps the table holds at most this much more. */
export const THROTTLE_SWEEP_INTERVAL_MS = HOUR;

/** Where a failed sweep is reported (the server's pino logger). */
export interface SweepLog {
  warn(fields: { err: unknown }, message: string): void;
}

export interface ThrottleSweeps {
  start(): void;
  /** Stops the sweeps and waits for one in progress. */
  stop(): Promise<void>;
  /** Sweeps now (tests); answers the number of buckets dropped, or null when the database failed. */
  sweep(): Promise<number | null>;
}

/**
 * The hourly sweep of this process's throttle buckets (decision 0137). Every process may run one: deleting rows that
 * are already gone does nothing. A failed sweep (the database unreachable) is logged and tried again next hour.
 */
export function createThrottleSweeps(deps: Pick<AppDeps, 'db' | 'clock'>, log: SweepLog): ThrottleSweeps {
  const poller = new WallClockPoller(async () => {
    try {
      return await sweepRefilledBuckets(deps.db, deps.clock.now());
    } catch (error) {
      log.warn({ err: error }, 'sweeping the refilled throttle buckets failed; trying again in an hour');
      return null;
    }
  });
  return {
    start: () => poller.start(THROTTLE_SWEEP_INTERVAL_MS),
    stop: () => poller.stop(),
    sweep: () => poller.check(),
  };
}
