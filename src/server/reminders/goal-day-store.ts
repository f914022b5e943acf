import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

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

/**
 * The goal's fields and the day's total for `date`, or null when the goal is gone. The ONE place reminders read
 * goal data, so a change of how amounts are stored (goal_entries, issue 9a) is made here alone.
 */
export async function goalDay(db: Kysely<Database>, goalId: number, date: string): Promise<GoalDay | null> {
  const row = await db
    .selectFrom('goals')
    .select(['name', 'unit', 'daily', 'start', 'days', 'sets_json'])
    .where('id', '=', goalId)
    .executeTakeFirst();
  if (!row) return null;
  const amounts = (JSON.parse(row.sets_json) as Record<string, number[]>)[date] ?? [];
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  return { name: row.name, unit: row.unit, daily: Number(row.daily), start: row.start, days: Number(row.days), total };
}
