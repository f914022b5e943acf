import type { Kysely } from 'kysely';
import type { Database, ReminderSendsTable } from '../db/schema.js';
import { inParts } from '../db/parts.js';
import type { ReminderChannel } from '../../common/reminders.js';
import { GOALS_PER_READ, goalDateKey, goalDay, type GoalDay } from './goal-day-store.js';

export interface ReminderSetting {
  goal_id: number;
  time: string;
  channel: ReminderChannel;
}

/**
 * Sets the goal's reminder. `time_set_at` becomes `now` when the reminder is new or its time changes, and stays when
 * only the channel changes or the same time is saved again: a reminder set after its time today rings first
 * tomorrow, and saving the form again must not move a reminder that is still to ring today (decision 0177).
 */
export async function saveReminder(
  db: Kysely<Database>,
  userId: number,
  goalId: number,
  setting: { time: string; channel: ReminderChannel },
  now: number,
): Promise<void> {
  const values = { time: setting.time, channel: setting.channel, updated_at: now };
  await db
    .insertInto('reminders')
    .values({ goal_id: goalId, user_id: userId, ...values, time_set_at: now })
    .onConflict((oc) =>
      oc.column('goal_id').doUpdateSet((eb) => ({
        ...values,
        time_set_at: eb
          .case()
          .when('reminders.time', '=', eb.ref('excluded.time'))
          .then(eb.ref('reminders.time_set_at'))
          .else(eb.ref('excluded.time_set_at'))
          .end(),
      })),
    )
    .execute();
}

/** Removes the reminder of the user's goal; true when there was one. */
export async function removeReminder(db: Kysely<Database>, userId: number, goalId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('reminders')
    .where('goal_id', '=', goalId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listReminders(db: Kysely<Database>, userId: number): Promise<ReminderSetting[]> {
  return db
    .selectFrom('reminders')
    .select(['goal_id', 'time', 'channel'])
    .where('user_id', '=', userId)
    .orderBy('goal_id')
    .execute();
}

/** A reminder with what the scheduler needs about its user. */
export interface ActiveReminder extends ReminderSetting {
  user_id: number;
  /** When its time was last set (decision 0177). */
  time_set_at: number;
  timezone: string | null;
  locale: string;
  email: string;
}

/**
 * Every reminder of a goal that is not archived, with its user's time zone, language and address (one query per
 * scheduler check). An archived goal is put away (decision 0093): it keeps its reminder, silent until restored.
 */
export async function listActiveReminders(db: Kysely<Database>): Promise<ActiveReminder[]> {
  return db
    .selectFrom('reminders')
    .innerJoin('users', 'users.id', 'reminders.user_id')
    .leftJoin('preferences', 'preferences.user_id', 'reminders.user_id')
    .leftJoin('goal_layout', 'goal_layout.goal_id', 'reminders.goal_id')
    .where('goal_layout.archived_at', 'is', null)
    .select([
      'reminders.goal_id',
      'reminders.user_id',
      'reminders.time',
      'reminders.channel',
      'reminders.time_set_at',
      'preferences.timezone',
      'users.locale',
      'users.email',
    ])
    .orderBy('reminders.goal_id')
    .execute();
}

/**
 * The (goal, date) pairs among `goalIds` × `dates` that already have a send row (claimed, sent or given up); one
 * statement per `goalsPerRead` goals, so any number of due reminders stays within the engines' bound parameters.
 */
export async function findSends(
  db: Kysely<Database>,
  goalIds: number[],
  dates: string[],
  goalsPerRead: number = GOALS_PER_READ,
): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const ids of inParts(goalIds, goalsPerRead)) {
    const rows = await db
      .selectFrom('reminder_sends')
      .select(['goal_id', 'local_date'])
      .where('goal_id', 'in', ids)
      .where('local_date', 'in', dates)
      .execute();
    for (const row of rows) taken.add(goalDateKey(row.goal_id, row.local_date));
  }
  return taken;
}

export interface SendClaim {
  goal_id: number;
  local_date: string;
  user_id: number;
  channel: string;
}

/**
 * Claims the reminder of `goal_id` on `local_date` for this process: the insert either creates the row (ours) or
 * finds it (another process, or an earlier check, has it). It runs inside the caller's transaction together with
 * the check that the reminder is still due, and takes the write lock first, so the decision is made once.
 */
export async function insertSendClaim(trx: Kysely<Database>, claim: SendClaim, now: number): Promise<boolean> {
  const inserted = await trx
    .insertInto('reminder_sends')
    .values({ ...claim, status: 'sending', attempts: 1, claimed_at: now, next_try_at: null, finished_at: null })
    .onConflict((oc) => oc.columns(['goal_id', 'local_date']).doNothing())
    .returning('goal_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Thrown inside the claim transaction to roll the claim back when the reminder turned out not to be due. */
class NotDue extends Error {}

/**
 * Claims and checks in one transaction: the claim row first (it takes the write lock, so two processes never
 * both decide), then the goal's day; when `due` says no (target met, goal over or gone), the claim is rolled back.
 * Returns the goal's day when this process now owns the send.
 */
export async function claimDueReminder(
  db: Kysely<Database>,
  claim: SendClaim,
  now: number,
  due: (day: GoalDay) => boolean,
): Promise<GoalDay | null> {
  try {
    return await db.transaction().execute(async (trx) => {
      if (!(await insertSendClaim(trx, claim, now))) return null;
      const day = await goalDay(trx, claim.goal_id, claim.local_date);
      if (!day || !due(day)) throw new NotDue();
      return day;
    });
  } catch (error) {
    if (error instanceof NotDue) return null;
    throw error;
  }
}

export type PendingSend = Pick<
  ReminderSendsTable,
  'goal_id' | 'local_date' | 'user_id' | 'channel' | 'status' | 'attempts'
>;

/** Sends waiting for another attempt, and claims whose process died while sending (older than `staleBefore`). */
export async function listPendingSends(db: Kysely<Database>, now: number, staleBefore: number): Promise<PendingSend[]> {
  return db
    .selectFrom('reminder_sends')
    .select(['goal_id', 'local_date', 'user_id', 'channel', 'status', 'attempts'])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'retry'), eb('next_try_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<=', staleBefore)]),
      ]),
    )
    .execute();
}

/** Takes a pending send over; exactly one process succeeds (the row must still be as it was read). */
export async function reclaimSend(db: Kysely<Database>, pending: PendingSend, now: number): Promise<boolean> {
  const result = await db
    .updateTable('reminder_sends')
    .set({ status: 'sending', attempts: pending.attempts + 1, claimed_at: now, next_try_at: null })
    .where('goal_id', '=', pending.goal_id)
    .where('local_date', '=', pending.local_date)
    .where('status', '=', pending.status)
    .where('attempts', '=', pending.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function finishSend(
  db: Kysely<Database>,
  key: { goal_id: number; local_date: string },
  outcome: { status: 'sent' | 'failed' | 'skipped' } | { status: 'retry'; nextTryAt: number },
  now: number,
): Promise<void> {
  await db
    .updateTable('reminder_sends')
    .set({
      status: outcome.status,
      next_try_at: outcome.status === 'retry' ? outcome.nextTryAt : null,
      finished_at: outcome.status === 'retry' ? null : now,
    })
    .where('goal_id', '=', key.goal_id)
    .where('local_date', '=', key.local_date)
    .execute();
}

/** The user and name of a goal, for the one-click page. */
export async function findGoalOwner(
  db: Kysely<Database>,
  goalId: number,
): Promise<{ user_id: number; name: string; locale: string } | null> {
  const row = await db
    .selectFrom('goals')
    .innerJoin('users', 'users.id', 'goals.user_id')
    .select(['goals.user_id', 'goals.name', 'users.locale'])
    .where('goals.id', '=', goalId)
    .executeTakeFirst();
  return row ?? null;
}

/** The language of a user, for the off link's page when their goal is gone; null when the account is gone too. */
export async function findUserLocale(db: Kysely<Database>, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('locale').where('id', '=', userId).executeTakeFirst();
  return row?.locale ?? null;
}

/** Deletes the send rows of local dates before `localDate` (YYYY-MM-DD); answers how many went. */
export async function deleteSendsBefore(db: Kysely<Database>, localDate: string): Promise<number> {
  const result = await db.deleteFrom('reminder_sends').where('local_date', '<', localDate).executeTakeFirst();
  return Number(result.numDeletedRows);
}
