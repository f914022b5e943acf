import { HOUR, MINUTE } from '../clock.js';

/** The wait after a first failure; each further failure in a row doubles it. */
export const FIRST_RETRY_MS = MINUTE;
/** The longest wait: a fixed disk or a pg_dump installed is backed up within the hour (decision 0214). */
export const LONGEST_RETRY_MS = HOUR;

/**
 * When work that keeps failing is tried again: 1, 2, 4, ... minutes after each failure, at most an hour, and at
 * once after a success. A full BACKUP_DIR would otherwise cost a copy of the whole database and an error line at
 * every check (decision 0214). Kept in memory: a restart tries at once, which is what an operator who just fixed the
 * cause wants.
 */
export class RetryBackoff {
  private failedAt: number | null = null;
  private waitMs = 0;

  /**
   * Whether to try at `now`. A clock set back to before the last failure ends the wait: the schedulers read the
   * wall clock at each check and must not wait a day because it jumped (decision 0075).
   */
  due(now: number): boolean {
    return this.failedAt === null || now < this.failedAt || now >= this.failedAt + this.waitMs;
  }

  /** A failure that ended at `now`; returns the wait before the next try. */
  failed(now: number): number {
    this.waitMs = this.failedAt === null ? FIRST_RETRY_MS : Math.min(this.waitMs * 2, LONGEST_RETRY_MS);
    this.failedAt = now;
    return this.waitMs;
  }

  succeeded(): void {
    this.failedAt = null;
    this.waitMs = 0;
  }
}
