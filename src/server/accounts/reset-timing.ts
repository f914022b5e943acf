import { setTimeout as sleep } from 'node:timers/promises';

/** Never pad longer than this, whatever a slow mail server taught the estimate. */
const MAX_PAD_MS = 5_000;
/** Weight of the newest measurement in the moving average. */
const NEWEST_WEIGHT = 0.2;

export interface TimingSource {
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

const realTime: TimingSource = { now: () => performance.now(), sleep: (ms) => sleep(ms) };

/**
 * Makes reset-request answers for unknown addresses take as long as those for known ones. A known address costs
 * storing the link and a whole SMTP delivery, which the spec's 500-on-mail-failure keeps before the answer; an
 * unknown one only a short SMTP conversation (`Mailer.verify`). This remembers how long recent real deliveries
 * took and lets the unknown answer wait out the difference (docs/decisions/0067-reset-request-timing.md).
 */
export class ResetAnswerTiming {
  private typicalMs: number | null = null;

  constructor(private readonly time: TimingSource = realTime) {}

  /** A mark for `recordDelivery` and `padFrom`. */
  start(): number {
    return this.time.now();
  }

  /** A known address's work (link stored, mail accepted) that began at `startedAt` is done. */
  recordDelivery(startedAt: number): void {
    const tookMs = this.time.now() - startedAt;
    this.typicalMs = this.typicalMs === null ? tookMs : this.typicalMs + NEWEST_WEIGHT * (tookMs - this.typicalMs);
  }

  /** Waits until the work that began at `startedAt` has taken as long as a typical delivery (none known: no wait). */
  async padFrom(startedAt: number): Promise<void> {
    if (this.typicalMs === null) return;
    const missingMs = Math.min(this.typicalMs, MAX_PAD_MS) - (this.time.now() - startedAt);
    if (missingMs > 0) await this.time.sleep(missingMs);
  }
}
