import { type Kysely, sql } from 'kysely';
import { addIdColumn, type DialectName, floatType, timestampType } from '../dialect.js';

/**
 * Moves the logged amounts out of `goals.sets_json` into one row per amount, so logging appends a row instead of
 * rewriting the goal's whole `sets` (docs/decisions/0090-goal-entries.md). Existing amounts keep their order: they
 * are inserted date by date in their stored order, and ids only grow. A date stored with no amounts (`[]`) becomes
 * a row with a null amount. The goal keeps two counters from which its `sets` size cap is checked without reading
 * its entries (the formula is goals/serialize.ts's `setsJsonBytes`, as of this migration). Then `sets_json` is dropped.
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const ts = timestampType(dialect);
  await addIdColumn(db.schema.createTable('goal_entries'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('goal_id', 'integer', (c) => c.notNull().references('goals.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('amount', floatType(dialect))
    .addColumn('entry_id', 'text')
    .addColumn('removed_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  // entry_ids belong to one user; NULLs (amounts logged without one) never collide on either engine.
  await db.schema.createIndex('goal_entries_entry_id').on('goal_entries').columns(['user_id', 'entry_id']).unique().execute();
  // The amounts of one date (logging, undo) and the whole list of a user, both in logging order, live rows only.
  await db.schema
    .createIndex('goal_entries_goal_date')
    .on('goal_entries')
    .columns(['goal_id', 'date', 'id'])
    .where(sql.ref('removed_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('goal_entries_user')
    .on('goal_entries')
    .columns(['user_id', 'goal_id', 'date', 'id'])
    .where(sql.ref('removed_at'), 'is', null)
    .execute();
  await db.schema.alterTable('goals').addColumn('sets_dates', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .alterTable('goals')
    .addColumn('sets_amount_chars', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  let lastId = 0;
  for (;;) {
    const goals: Array<{ id: number; user_id: number; sets_json: string; updated_at: number | string }> = await db
      .selectFrom('goals')
      .select(['id', 'user_id', 'sets_json', 'updated_at'])
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(50)
      .execute();
    if (goals.length === 0) break;
    for (const goal of goals) await convertGoal(db, goal);
    lastId = goals[goals.length - 1]!.id;
  }
  await db.schema.alterTable('goals').dropColumn('sets_json').execute();
}

/** Both engines bound a statement's parameters; 400 rows of 5 values stay far below. */
const ROWS_PER_INSERT = 400;

async function convertGoal(
  db: Kysely<any>,
  goal: { id: number; user_id: number; sets_json: string; updated_at: number | string },
): Promise<void> {
  const sets = JSON.parse(goal.sets_json) as Record<string, number[]>;
  const createdAt = Number(goal.updated_at);
  const rows: Array<Record<string, unknown>> = [];
  let amountChars = 0;
  const dates = Object.keys(sets).sort();
  for (const date of dates) {
    const amounts = sets[date]!;
    if (amounts.length === 0) {
      rows.push({ user_id: goal.user_id, goal_id: goal.id, date, amount: null, created_at: createdAt });
      amountChars += 1;
    }
    for (const amount of amounts) {
      rows.push({ user_id: goal.user_id, goal_id: goal.id, date, amount, created_at: createdAt });
      amountChars += JSON.stringify(amount).length + 1;
    }
  }
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await db
      .insertInto('goal_entries')
      .values(rows.slice(start, start + ROWS_PER_INSERT))
      .execute();
  }
  await db
    .updateTable('goals')
    .set({ sets_dates: dates.length, sets_amount_chars: amountChars })
    .where('id', '=', goal.id)
    .execute();
}
