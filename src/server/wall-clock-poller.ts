/**
 * Runs a check at start and then every `intervalMs`. Schedulers built on it read the wall clock in every check
 * rather than sleeping until a computed instant, so a suspended machine or a changed clock is noticed at the next
 * check (the daily backup, decision 0075; the reminders, decision 0100). Overlapping calls share one run, and
 * `stop` waits for the run in progress.
 */
export class WallClockPoller<T> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<T> | undefined;

  constructor(private readonly checkOnce: () => Promise<T>) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.check(), intervalMs);
    this.timer.unref();
    void this.check();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  check(): Promise<T> {
    this.running ??= this.checkOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
