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
 * goal data, so a change of how amounts are stored is made here alone.
 */
export async function goalDay(db: Kysely<Database>, goalId: number, date: string): Promise<GoalDay | null> {
  const row = await db
    .selectFrom('goals')
    .select(['name', 'unit', 'daily', 'start', 'days'])
    .where('id', '=', goalId)
    .executeTakeFirst();
  if (!row) return null;
  // Live entries only: removed ones are kept as tombstones (decision 0092); a date kept as `[]` has a null amount.
  const sum = await db
    .selectFrom('goal_entries')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('total'))
    .where('goal_id', '=', goalId)
    .where('date', '=', date)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  const total = Number(sum?.total ?? 0);
  return { name: row.name, unit: row.unit, daily: Number(row.daily), start: row.start, days: Number(row.days), total };
}
