import type { Kysely } from 'kysely';
import { DAY, MINUTE, SECOND, type Clock } from '../clock.js';
import type { Database } from '../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import type { Metrics } from '../ops/metrics.js';
import type { PushSender } from '../push/sender.js';
import { forgetPushEndpoint, listPushSubscriptions } from '../push/store.js';
import { goalLink, reminderFacts, reminderMail, reminderPush } from './content.js';
import { goalDateKey, goalDay, goalDays, type GoalDay } from './goal-day-store.js';
import { belowTarget, isTimeReached, localDateAndTime, runsOn, setInTimeFor } from './schedule.js';
import {
  type ActiveReminder,
  claimDueReminder,
  deleteSendsBefore,
  findSends,
  finishSend,
  listActiveReminders,
  listPendingSends,
  type PendingSend,
  reclaimSend,
} from './store.js';
import { reminderOffUrl } from './unsubscribe-link.js';
import { WallClockPoller } from '../wall-clock-poller.js';
import { FailureStreak } from '../failure-streak.js';

/** How often the wall clock is looked at: a reminder goes out within this (plus the send) of being due. */
export const REMINDER_CHECK_MS = 15 * SECOND;
/** Attempts per reminder and day; the waits before the second and third. */
export const MAX_ATTEMPTS = 3;
export const RETRY_DELAYS_MS = [1 * MINUTE, 5 * MINUTE];
/** A claim still "sending" after this belonged to a process that died mid-send; another process may take over. */
export const STALE_SENDING_MS = 5 * MINUTE;

/**
 * A send row says a goal's reminder of one local date was handled; only today's is ever looked at, and no zone's
 * today lies two days behind UTC's (UTC-12, with a day's room for a user who moves west). Older rows are dropped.
 */
export const SENDS_KEPT_MS = 2 * DAY;

/** Drops the send rows no check can look at again (decision 0137); without this they grow by a row per reminder a day. */
export function sweepPastSends(db: Kysely<Database>, now: number): Promise<number> {
  return deleteSendsBefore(db, new Date(now - SENDS_KEPT_MS).toISOString().slice(0, 10));
}

export interface ReminderLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ReminderSchedulerOptions {
  db: Kysely<Database>;
  clock: Clock;
  mailer: Mailer;
  push: PushSender;
  metrics: Pick<Metrics, 'reminders'>;
  baseUrl: string;
  secretKey: Buffer;
  /** The zone of users who never set one (the server's). */
  defaultTimeZone: string;
  log: ReminderLog;
}

type Outcome = 'sent' | 'retry' | 'give-up';

/**
 * Sends each goal's reminder once per local day (docs/decisions/0100 and 0101). Every check reads the wall clock,
 * so a suspended machine or a clock change is noticed at the next check; only today's (local) reminder of each
 * goal is ever considered, so a server that was down sends what is still due today and never yesterday's.
 */
export class ReminderScheduler {
  private readonly poller = new WallClockPoller(() =>
    this.checkOnce().then(
      (sent) => {
        this.failures.succeeded(this.options.clock.now());
        return sent;
      },
      (error: unknown) => {
        this.failures.failed(error, this.options.clock.now());
        return 0;
      },
    ),
  );
  /** Checks that failed in a row: logged once, then hourly (decision 0228). */
  private readonly failures: FailureStreak;

  constructor(private readonly options: ReminderSchedulerOptions) {
    this.failures = new FailureStreak(
      options.log,
      'reminders: the check failed; the next one tries again',
      'reminders: the check works again',
    );
  }

  start(intervalMs = REMINDER_CHECK_MS): void {
    this.poller.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** One look at the clock; resolves to the number of reminders sent. Overlapping calls share one run. */
  check(): Promise<number> {
    return this.poller.check();
  }

  private async checkOnce(): Promise<number> {
    const { db, clock } = this.options;
    const now = clock.now();
    const reminders = await listActiveReminders(db);
    const byGoal = new Map(reminders.map((reminder) => [reminder.goal_id, reminder]));
    let sent = 0;

    // Due: its time reached today, and set before it (a reminder set at 16:09 for 07:30 first rings tomorrow,
    // decision 0177), both on the wall clock of the user's zone.
    const due = reminders
      .map((reminder) => ({ reminder, local: localDateAndTime(now, this.zoneOf(reminder)) }))
      .filter(
        ({ reminder, local }) =>
          isTimeReached(local.time, reminder.time) &&
          setInTimeFor(localDateAndTime(reminder.time_set_at, this.zoneOf(reminder)), local.date, reminder.time),
      );
    const taken = await findSends(
      db,
      due.map(({ reminder }) => reminder.goal_id),
      [...new Set(due.map(({ local }) => local.date))],
    );
    const open = due.filter(({ reminder, local }) => !taken.has(goalDateKey(reminder.goal_id, local.date)));
    // A read first, of all of them at once: a goal whose target is met (or that is over) costs no write transaction
    // every check, and a thousand of them cost four statements, not two thousand (decision 0126).
    const days = await goalDays(
      db,
      open.map(({ reminder, local }) => ({ goalId: reminder.goal_id, date: local.date })),
    );
    for (const { reminder, local } of open) {
      const stillDue = (goal: GoalDay) => runsOn(goal, local.date) && belowTarget(goal);
      const before = days.get(goalDateKey(reminder.goal_id, local.date));
      if (!before || !stillDue(before)) continue;
      const claim = {
        goal_id: reminder.goal_id,
        local_date: local.date,
        user_id: reminder.user_id,
        channel: reminder.channel,
      };
      const day = await claimDueReminder(db, claim, now, stillDue);
      if (day && (await this.attempt(reminder, local.date, day, 1)) === 'sent') sent++;
    }

    for (const pending of await listPendingSends(db, now, now - STALE_SENDING_MS)) {
      if ((await this.retry(pending, byGoal.get(pending.goal_id), now)) === 'sent') sent++;
    }
    return sent;
  }

  /** Another attempt at a failed send (or one whose process died), while its day lasts and the goal still needs it. */
  private async retry(
    pending: PendingSend,
    reminder: ActiveReminder | undefined,
    now: number,
  ): Promise<Outcome | null> {
    const { db } = this.options;
    const key = { goal_id: pending.goal_id, local_date: pending.local_date };
    if (!(await reclaimSend(db, pending, now))) return null;
    const stillWanted =
      reminder !== undefined && localDateAndTime(now, this.zoneOf(reminder)).date === pending.local_date;
    if (!stillWanted) {
      await finishSend(db, key, { status: 'failed' }, now);
      this.options.log.warn(
        { goalId: pending.goal_id, date: pending.local_date },
        'reminder dropped: its day is over or it was turned off',
      );
      return 'give-up';
    }
    const day = await goalDay(db, pending.goal_id, pending.local_date);
    if (!day || !belowTarget(day)) {
      await finishSend(db, key, { status: 'skipped' }, now);
      return null;
    }
    return this.attempt(reminder, pending.local_date, day, pending.attempts + 1);
  }

  /** Sends one reminder and records the outcome: sent, another try later, or given up (logged and counted). */
  private async attempt(reminder: ActiveReminder, date: string, day: GoalDay, attempt: number): Promise<Outcome> {
    const { db, clock, log, metrics } = this.options;
    const key = { goal_id: reminder.goal_id, local_date: date };
    const details = { goalId: reminder.goal_id, userId: reminder.user_id, channel: reminder.channel, date, attempt };
    let outcome: Outcome;
    let failure: unknown;
    try {
      outcome = reminder.channel === 'email' ? await this.sendMail(reminder, day) : await this.sendPush(reminder, day);
    } catch (error) {
      outcome = 'retry';
      failure = error;
    }
    if (outcome === 'retry' && attempt >= MAX_ATTEMPTS) outcome = 'give-up';
    const now = clock.now();
    if (outcome === 'sent') {
      await finishSend(db, key, { status: 'sent' }, now);
      metrics.reminders.inc({ result: 'sent', channel: reminder.channel });
      log.info(details, 'reminder sent');
    } else if (outcome === 'retry') {
      await finishSend(db, key, { status: 'retry', nextTryAt: now + RETRY_DELAYS_MS[attempt - 1]! }, now);
      log.warn({ ...details, err: failure }, 'reminder could not be sent; trying again later');
    } else {
      await finishSend(db, key, { status: 'failed' }, now);
      metrics.reminders.inc({ result: 'failed', channel: reminder.channel });
      log.error({ ...details, err: failure }, 'reminder could not be sent; giving up for today');
    }
    return outcome;
  }

  private async sendMail(reminder: ActiveReminder, day: GoalDay): Promise<Outcome> {
    const { baseUrl, secretKey, mailer } = this.options;
    const off = reminderOffUrl(baseUrl, secretKey, reminder.goal_id, reminder.user_id);
    const mail = reminderMail(
      reminder.locale,
      reminderFacts(day),
      { goal: goalLink(baseUrl, reminder.goal_id), off },
      reminder.time,
    );
    await mailer.send({
      to: reminder.email,
      ...mail,
      // RFC 2369 and RFC 8058: mail clients show an unsubscribe button that POSTs to the link in one click.
      headers: { 'List-Unsubscribe': `<${off}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    return 'sent';
  }

  /** Every browser of the user gets it; one delivery is success. Gone subscriptions are forgotten. */
  private async sendPush(reminder: ActiveReminder, day: GoalDay): Promise<Outcome> {
    const { db, push, baseUrl, log } = this.options;
    const subscriptions = await listPushSubscriptions(db, reminder.user_id);
    const payload = reminderPush(reminder.locale, reminderFacts(day), goalLink(baseUrl, reminder.goal_id));
    let delivered = 0;
    let failed = 0;
    for (const subscription of subscriptions) {
      try {
        const result = await push.send(subscription, payload);
        if (result === 'sent') delivered++;
        else if (result === 'gone') await forgetPushEndpoint(db, subscription.endpoint);
        else failed++;
      } catch (error) {
        failed++;
        log.warn({ err: error, userId: reminder.user_id }, 'push to one subscription failed');
      }
    }
    if (delivered > 0) return 'sent';
    // No browser left to reach: trying again cannot help.
    return failed > 0 ? 'retry' : 'give-up';
  }

  private zoneOf(reminder: ActiveReminder): string {
    return reminder.timezone ?? this.options.defaultTimeZone;
  }
}
