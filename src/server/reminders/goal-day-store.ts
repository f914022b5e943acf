import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { inParts } from '../db/parts.js';

/** What a reminder needs to know about its goal on one local date. */
export interface GoalDay {
  name: string;
  unit: string;
  daily: number;
  /** Wall-clock `YYYY-MM-DD HH:MM:SS` as stored. */
  start: string;
  days: number;
  /** Sum of the amounts logged on the date. */
  total: number;
}

/** One goal on one local date, as reminders ask about it. */
export interface GoalDate {
  goalId: number;
  date: string;
}

/** The key of a goal on a local date, in maps of days and of reminder sends alike. */
export const goalDateKey = (goalId: number, date: string) => `${goalId}/${date}`;

/** Goals per statement: far below the bound parameters SQLite and PostgreSQL take. */
export const GOALS_PER_READ = 500;

/**
 * The goal's fields and the day's total for each of `wanted`, by `goalDateKey`; a goal that is gone has no entry.
 * Two statements per 500 goals, whatever the number of reminders (decision 0126). The ONE place reminders read goal
 * data, so a change of how amounts are stored is made here alone.
 */
export async function goalDays(
  db: Kysely<Database>,
  wanted: GoalDate[],
  goalsPerRead: number = GOALS_PER_READ,
): Promise<Map<string, GoalDay>> {
  const days = new Map<string, GoalDay>();
  const goalIds = [...new Set(wanted.map((each) => each.goalId))];
  for (const ids of inParts(goalIds, goalsPerRead)) {
    const inPart = new Set(ids);
    const part = wanted.filter((each) => inPart.has(each.goalId));
    const goals = await db
      .selectFrom('goals')
      .select(['id', 'name', 'unit', 'daily', 'start', 'days'])
      .where('id', 'in', ids)
      .execute();
    // Live entries only: removed ones are kept as tombstones (decision 0092); a date kept as `[]` has a null amount.
    // The dates of all goals are read for every goal of the part: reminders ask about one to three local dates.
    const sums = await db
      .selectFrom('goal_entries')
      .select((eb) => ['goal_id', 'date', eb.fn.sum<number | string | null>('amount').as('total')])
      .where('goal_id', 'in', ids)
      .where('date', 'in', [...new Set(part.map((each) => each.date))])
      .where('removed_at', 'is', null)
      .groupBy(['goal_id', 'date'])
      .execute();
    const totals = new Map(sums.map((row) => [goalDateKey(row.goal_id, row.date), row.total]));
    const byId = new Map(goals.map((goal) => [goal.id, goal]));
    for (const each of part) {
      const goal = byId.get(each.goalId);
      if (!goal) continue;
      const key = goalDateKey(each.goalId, each.date);
      days.set(key, {
        name: goal.name,
        unit: goal.unit,
        daily: Number(goal.daily),
        start: goal.start,
        days: Number(goal.days),
        total: Number(totals.get(key) ?? 0),
      });
    }
  }
  return days;
}

/** The goal's fields and the day's total for `date`, or null when the goal is gone. */
export async function goalDay(db: Kysely<Database>, goalId: number, date: string): Promise<GoalDay | null> {
  return (await goalDays(db, [{ goalId, date }])).get(goalDateKey(goalId, date)) ?? null;
}
