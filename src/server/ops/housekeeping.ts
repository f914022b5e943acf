import type { Kysely } from 'kysely';
import { sweepGoneLogins } from '../auth/sessions-store.js';
import { sweepRefilledBuckets } from '../auth/throttle.js';
import { HOUR } from '../clock.js';
import type { Database } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { sweepPastSends } from '../reminders/scheduler.js';
import { WallClockPoller } from '../wall-clock-poller.js';

/** How often the sweeps run; between two, their tables hold at most this much more than they keep. */
export const HOUSEKEEPING_INTERVAL_MS = HOUR;

/** Rows that no request or check can need any more, each kind dropped by its own sweep (decision 0137). */
const SWEEPS = {
  throttleBuckets: sweepRefilledBuckets,
  reminderSends: sweepPastSends,
  goneLogins: sweepGoneLogins,
} satisfies Record<string, (db: Kysely<Database>, now: number) => Promise<number>>;

export type SweepName = keyof typeof SWEEPS;

/** Rows each sweep dropped; null for a sweep that failed. */
export type SweepResults = Record<SweepName, number | null>;

/** Where a failed sweep is reported (the server's pino logger). */
export interface HousekeepingLog {
  warn(fields: { err: unknown; sweep: SweepName }, message: string): void;
}

export interface Housekeeping {
  start(): void;
  /** Stops the sweeps and waits for a run in progress. */
  stop(): Promise<void>;
  /** Runs every sweep now (tests). */
  run(): Promise<SweepResults>;
}

/**
 * This process's hourly housekeeping, started once the server answers. Every process may run its own: a second
 * delete of the same rows does nothing. A failed sweep (the database unreachable) is logged and tried again an hour
 * later; it never ends the process, and the other sweeps still run.
 */
export function createHousekeeping(deps: Pick<AppDeps, 'db' | 'clock'>, log: HousekeepingLog): Housekeeping {
  const poller = new WallClockPoller(async () => {
    const results = {} as SweepResults;
    for (const [sweep, drop] of Object.entries(SWEEPS) as Array<[SweepName, (typeof SWEEPS)[SweepName]]>) {
      try {
        results[sweep] = await drop(deps.db, deps.clock.now());
      } catch (error) {
        log.warn({ err: error, sweep }, 'a housekeeping sweep failed; trying again in an hour');
        results[sweep] = null;
      }
    }
    return results;
  });
  return {
    start: () => poller.start(HOUSEKEEPING_INTERVAL_MS),
    stop: () => poller.stop(),
    run: () => poller.check(),
  };
}
