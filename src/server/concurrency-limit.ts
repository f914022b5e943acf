/**
 * At most `limit` holders at once; the others wait in arrival order. Used where each holder costs much memory:
 * password hashes (decision 0113) and imports (decision 0116).
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Waits for a place and returns the function that gives it back; calling that again does nothing. */
  async acquire(): Promise<() => void> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      // The place passes straight to the next waiter, so `running` stays the number of holders.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}
