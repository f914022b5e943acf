import { HOUR, MINUTE } from './clock.js';

/** Where a streak is told (the server's pino logger). */
export interface StreakLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * The failures of a check that runs every few seconds or minutes (the reminders every 15 s, the backup's claim every
 * minute), told as an operator reads them: the first one as an error with its cause, then once an hour while they
 * go on (`failures` so far, `since` when the first came), and one line when the check works again. Without it a
 * database away for an hour wrote 240 error lines with their stacks for the reminders alone, burying what else
 * happened and paging on every line (decision 0228).
 */
export class FailureStreak {
  private failures = 0;
  private since = 0;
  private toldAt = 0;

  /**
   * `failedMessage` is logged at the first failure and on each hourly reminder; `againMessage` when the check
   * works again after a failure.
   */
  constructor(
    private readonly log: StreakLog,
    private readonly failedMessage: string,
    private readonly againMessage: string,
    private readonly repeatMs = HOUR,
  ) {}

  failed(error: unknown, now: number): void {
    this.failures++;
    if (this.failures === 1) this.since = now;
    else if (now - this.toldAt < this.repeatMs) return;
    this.toldAt = now;
    const streak = this.failures > 1 && { failures: this.failures, since: new Date(this.since).toISOString() };
    this.log.error({ err: error, ...streak }, this.failedMessage);
  }

  succeeded(now: number): void {
    if (this.failures === 0) return;
    this.log.info(
      {
        failures: this.failures,
        since: new Date(this.since).toISOString(),
        minutes: Math.round((now - this.since) / MINUTE),
      },
      this.againMessage,
    );
    this.failures = 0;
  }
}
