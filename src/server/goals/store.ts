import { setImmediate } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { GOAL_LIMITS } from '../../common/goal.js';
import { badRequest } from '../http/errors.js';
import { selectArrayRows } from '../db/array-rows.js';
import { indexesEntriesByUser } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { checkSetsSize, entriesSetsJson, type EntryRow, goalJson, type GoalRecord, setsSize } from './serialize.js';
import { claimRequestKey, recordKeyResult, type RequestKey } from '../http/request-keys-store.js';
import type { GoalChanges, NewGoal } from './validation.js';
import { insertEntries, liveEntries, replaceEntries } from './entries-store.js';
import { bumpGoalsVersion } from './version-store.js';
import { inWriteTransaction } from '../db/shared-commits-store.js';

const GOAL_COLUMNS = ['id', 'name', 'unit', 'daily', 'days', 'start'] as const;

/** The caller's goals, oldest first (ids only grow, so id order is creation order). */
export async function listGoals(db: Kysely<Database>, userId: number): Promise<GoalRecord[]> {
  return db.selectFrom('goals').select(GOAL_COLUMNS).where('user_id', '=', userId).orderBy('id').execute();
}

/**
 * Rows per statement when reading a list. A long history (up to millions of amounts) is read in parts, so no single
 * statement nears PostgreSQL's query timeout, the reader holds one part at a time instead of every row of a 25 MiB
 * list at once (decision 0116), and other requests run between the parts: a part of 5,000 rows keeps the event loop
 * for 10-30 ms on a slow machine, one of 50,000 kept it for 90-135 ms (decision 0121). The parts are not one
 * snapshot: a write racing a read of a list this long may show in part in that one answer, and the write bumps the
 * list version, so the next read is whole again.
 */
export const ENTRIES_PER_READ = 5_000;

/** Every live entry of the caller's goals, ordered as the goal list writes them (goal, date, id), in parts. */
export async function* entryParts(
  db: Kysely<Database>,
  userId: number,
  perRead: number = ENTRIES_PER_READ,
): AsyncGenerator<EntryRow[]> {
  let last: EntryTuple | undefined;
  for (;;) {
    const query = entryPartQuery(db, userId, last, perRead);
    // Arrays from the driver, objects made here: 0.1 ms for 2,700 rows, where the driver's objects took 1.8 (decision 0120).
    const rows = await selectArrayRows<EntryTuple>(query);
    if (rows.length > 0) yield rows.map(([goal_id, date, , amount]) => ({ goal_id, date, amount }));
    if (rows.length < perRead) return;
    last = rows[rows.length - 1];
    // better-sqlite3 reads synchronously and the awaits between parts are microtasks, which run before any I/O:
    // without a turn of the event loop here, a list of many parts held up every other request until it was done.
    await setImmediate();
  }
}

/**
 * The read of one part of `entryParts`: the caller's live entries after `after` (all when undefined), at most
 * `perRead`. Exported for the test of its plan.
 */
export function entryPartQuery(db: Kysely<Database>, userId: number, after: EntryTuple | undefined, perRead: number) {
  return (
    db
      .selectFrom('goal_entries')
      .select(['goal_id', 'date', 'id', 'amount'])
      // SQLite: the user's goals from the last part's on, in order, each goal's rows in `goal_entries_goal_date`'s
      // order, so nothing is sorted and a part starts at its goal (decision 0218).
      .where((eb) =>
        indexesEntriesByUser(db)
          ? eb('user_id', '=', userId)
          : eb(
              'goal_id',
              'in',
              eb
                .selectFrom('goals')
                .select('id')
                .where('user_id', '=', userId)
                .where('id', '>=', after?.[0] ?? 0),
            ),
      )
      .where('removed_at', 'is', null)
      .$if(after !== undefined, (query) =>
        query.where((eb) => eb(eb.refTuple('goal_id', 'date', 'id'), '>', eb.tuple(after![0], after![1], after![2]))),
      )
      .orderBy('goal_id')
      .orderBy('date')
      .orderBy('id')
      .limit(perRead)
  );
}

/** A row of `entryParts`'s read, in its select's order. */
export type EntryTuple = [goal_id: number, date: string, id: number, amount: number | null];

async function countGoals(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('goals')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * After adding goals: bumps the version, then counts. The bump locks the user's row, so a parallel insert waits
 * for it and then counts these goals too, and no race gets past the cap; over it, the throw rolls the insert back.
 */
async function bumpVersionWithinGoalCap(trx: Kysely<Database>, userId: number): Promise<void> {
  await bumpGoalsVersion(trx, userId);
  if ((await countGoals(trx, userId)) > GOAL_LIMITS.goalsPerUserMax) {
    throw badRequest('too_many_goals', `a user may have at most ${GOAL_LIMITS.goalsPerUserMax} goals`);
  }
}

function goalRow(userId: number, goal: NewGoal, createdAt: number, updatedAt: number) {
  const { name, unit, daily, days, start } = goal;
  const size = setsSize(goal.sets);
  checkSetsSize(size);
  return {
    user_id: userId,
    name,
    unit,
    daily,
    days,
    start,
    sets_dates: size.dates,
    sets_amount_chars: size.amountChars,
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

export async function insertGoal(
  db: Kysely<Database>,
  userId: number,
  goal: NewGoal,
  now: number,
): Promise<GoalRecord> {
  return db.transaction().execute((trx) => addGoal(trx, userId, goal, now));
}

/**
 * A goal created with an `Idempotency-Key` (decision 0130): the first request with the key adds it; a repeat with
 * the same body adds nothing and answers that goal's id; `reused` when the key came with another body.
 */
export async function insertKeyedGoal(
  db: Kysely<Database>,
  userId: number,
  goal: NewGoal,
  now: number,
  key: RequestKey,
): Promise<GoalRecord | { repeatOf: number } | 'reused'> {
  return db.transaction().execute(async (trx) => {
    const claim = await claimRequestKey(trx, userId, 'create_goal', key, now);
    if (claim === 'reused') return claim;
    if (!claim.new) return { repeatOf: claim.repeatOf };
    const inserted = await addGoal(trx, userId, goal, now);
    await recordKeyResult(trx, userId, 'create_goal', key, inserted.id);
    return inserted;
  });
}

/** The goal, its amounts and the list version, inside the caller's transaction. */
async function addGoal(trx: Kysely<Database>, userId: number, goal: NewGoal, now: number): Promise<GoalRecord> {
  const inserted = await trx
    .insertInto('goals')
    .values(goalRow(userId, goal, now, now))
    .returning(GOAL_COLUMNS)
    .executeTakeFirstOrThrow();
  await insertEntries(trx, userId, inserted.id, goal.sets, now);
  await bumpVersionWithinGoalCap(trx, userId);
  return inserted;
}

/** One of the caller's goals as a Goal's JSON text, as the goal list writes it; undefined when there is none. */
export async function goalJsonById(db: Kysely<Database>, userId: number, goalId: number): Promise<string | undefined> {
  const goal = await db
    .selectFrom('goals')
    .select(GOAL_COLUMNS)
    .where('id', '=', goalId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return goal && goalJson(goal, entriesSetsJson(await liveEntries(db, goalId)));
}

/** True when `goalId` is one of `userId`'s goals. */
export async function isOwnGoal(db: Kysely<Database>, userId: number, goalId: number): Promise<boolean> {
  const row = await db
    .selectFrom('goals')
    .select('id')
    .where('id', '=', goalId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Applies `changes` to the caller's goal; false when the caller has no goal `goalId`. New `sets` replace the old
 * ones whole; the goal row is written first, which locks it (decision 0034), then only the dates that differ are
 * rewritten (entries-store.ts).
 */
export async function updateGoal(
  db: Kysely<Database>,
  userId: number,
  goalId: number,
  changes: GoalChanges,
  now: number,
): Promise<boolean> {
  // Nothing to change, but a missing goal is still reported as missing.
  if (Object.keys(changes).length === 0) return isOwnGoal(db, userId, goalId);
  const size = changes.sets === undefined ? undefined : setsSize(changes.sets);
  if (size) checkSetsSize(size);
  return inWriteTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('goals')
      .set({
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.unit !== undefined && { unit: changes.unit }),
        ...(changes.daily !== undefined && { daily: changes.daily }),
        ...(changes.days !== undefined && { days: changes.days }),
        ...(size && { sets_dates: size.dates, sets_amount_chars: size.amountChars }),
        updated_at: now,
      })
      .where('id', '=', goalId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const updated = Number(result.numUpdatedRows) > 0;
    if (!updated) return false;
    if (changes.sets !== undefined) await replaceEntries(trx, userId, goalId, changes.sets, now);
    else await bumpGoalsVersion(trx, userId);
    return true;
  });
}

/** Deletes the caller's goal `goalId` and its entries; another user's or a missing goal is left alone. */
export async function deleteGoal(db: Kysely<Database>, userId: number, goalId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('goals')
      .where('id', '=', goalId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return;
    // Spelled out rather than left to ON DELETE CASCADE, which SQLite applies only with its foreign_keys pragma.
    await trx.deleteFrom('goal_entries').where('goal_id', '=', goalId).execute();
    await bumpGoalsVersion(trx, userId);
  });
}

/**
 * Appends goals (an import) and answers their ids, in order; run it in the import's transaction, so that all are
 * stored or none. Ids are new and larger than every existing one, so the goals follow the caller's existing goals
 * in the list. Kept times are stored as given.
 */
export async function insertGoals(
  trx: Kysely<Database>,
  userId: number,
  goals: Array<NewGoal & { createdAt: number | null; updatedAt: number | null }>,
  now: number,
): Promise<number[]> {
  const ids: number[] = [];
  for (const goal of goals) {
    const createdAt = goal.createdAt ?? now;
    const { id } = await trx
      .insertInto('goals')
      .values(goalRow(userId, goal, createdAt, goal.updatedAt ?? createdAt))
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertEntries(trx, userId, id, goal.sets, createdAt);
    ids.push(id);
  }
  await bumpVersionWithinGoalCap(trx, userId);
  return ids;
}
