import type { Kysely } from 'kysely';
import type { GoalSets } from '../../common/goal.js';
import type { Database } from '../db/schema.js';
import { canonicalSetsJson, type GoalRecord } from './serialize.js';
import type { GoalChanges, NewGoal } from './validation.js';

const GOAL_COLUMNS = ['id', 'name', 'unit', 'daily', 'days', 'start', 'sets_json'] as const;

/** The caller's goals, oldest first (ids only grow, so id order is creation order). */
export async function listGoals(db: Kysely<Database>, userId: number): Promise<GoalRecord[]> {
  return db.selectFrom('goals').select(GOAL_COLUMNS).where('user_id', '=', userId).orderBy('id').execute();
}

export async function insertGoal(db: Kysely<Database>, userId: number, goal: NewGoal, now: number): Promise<GoalRecord> {
  return db
    .insertInto('goals')
    .values({
      user_id: userId,
      name: goal.name,
      unit: goal.unit,
      daily: goal.daily,
      days: goal.days,
      start: goal.start,
      sets_json: canonicalSetsJson(goal.sets),
      created_at: now,
      updated_at: now,
    })
    .returning(GOAL_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Applies `changes` to the caller's goal; false when the caller has no goal `goalId`. */
export async function updateGoal(
  db: Kysely<Database>,
  userId: number,
  goalId: number,
  changes: GoalChanges,
  now: number,
): Promise<boolean> {
  if (Object.keys(changes).length === 0) {
    // Nothing to change, but a missing goal is still reported as missing.
    const row = await db.selectFrom('goals').select('id').where('id', '=', goalId).where('user_id', '=', userId).executeTakeFirst();
    return row !== undefined;
  }
  const result = await db
    .updateTable('goals')
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.unit !== undefined && { unit: changes.unit }),
      ...(changes.daily !== undefined && { daily: changes.daily }),
      ...(changes.days !== undefined && { days: changes.days }),
      ...(changes.sets !== undefined && { sets_json: canonicalSetsJson(changes.sets) }),
      updated_at: now,
    })
    .where('id', '=', goalId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the caller's goal `goalId`; another user's or a missing goal is left alone without complaint. */
export async function deleteGoal(db: Kysely<Database>, userId: number, goalId: number): Promise<void> {
  await db.deleteFrom('goals').where('id', '=', goalId).where('user_id', '=', userId).execute();
}

/**
 * Read-modify-write of one goal's `sets` in one transaction. The FIRST statement writes the goal row: that takes
 * SQLite's database write lock (a deferred transaction that read first could fail to upgrade) and PostgreSQL's
 * row lock (a concurrent writer waits, then sees the committed `sets_json`), so concurrent edits serialise
 * without any engine-specific code. `edit` changes `sets` in place; if it throws, nothing is written.
 * Returns undefined when the caller has no goal `goalId`.
 */
export async function editGoalSets<T>(
  db: Kysely<Database>,
  userId: number,
  goalId: number,
  now: number,
  edit: (sets: GoalSets) => T,
): Promise<{ result: T } | undefined> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx
      .updateTable('goals')
      .set({ updated_at: now })
      .where('id', '=', goalId)
      .where('user_id', '=', userId)
      .returning('sets_json')
      .executeTakeFirst();
    if (!locked) return undefined;
    const sets = JSON.parse(locked.sets_json) as GoalSets;
    const result = edit(sets);
    await trx.updateTable('goals').set({ sets_json: canonicalSetsJson(sets) }).where('id', '=', goalId).execute();
    return { result };
  });
}
