import type { Kysely } from 'kysely';
import { GOAL_LIMITS, type GoalSets } from '../../common/goal.js';
import { badRequest } from '../http/errors.js';
import { precompiled } from '../db/precompiled.js';
import type { Database } from '../db/schema.js';
import { canonicalSetsJson, type GoalRecord } from './serialize.js';
import type { GoalChanges, NewGoal } from './validation.js';

const GOAL_COLUMNS = ['id', 'name', 'unit', 'daily', 'days', 'start', 'sets_json'] as const;

/** The caller's goals, oldest first (ids only grow, so id order is creation order). */
export async function listGoals(db: Kysely<Database>, userId: number): Promise<GoalRecord[]> {
  return db.selectFrom('goals').select(GOAL_COLUMNS).where('user_id', '=', userId).orderBy('id').execute();
}

async function countGoals(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('goals')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Read before every goal list, hence compiled once. */
const goalsVersionQuery = precompiled((db: Kysely<Database>, p: { userId: number }) =>
  db.selectFrom('users').select('goals_version').where('id', '=', p.userId),
);

/** The counter that every change to the user's goals increases (see `bumpGoalsVersion`). */
export async function goalsVersion(db: Kysely<Database>, userId: number): Promise<number> {
  const [row] = await goalsVersionQuery(db, { userId });
  return row?.goals_version ?? 0;
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

/** Every write to a user's goals calls this in the same transaction, after its write to the goal row. */
async function bumpGoalsVersion(trx: Kysely<Database>, userId: number): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ goals_version: eb('goals_version', '+', 1) }))
    .where('id', '=', userId)
    .execute();
}

function goalRow(userId: number, goal: NewGoal, createdAt: number, updatedAt: number) {
  const { name, unit, daily, days, start } = goal;
  return {
    user_id: userId,
    name,
    unit,
    daily,
    days,
    start,
    sets_json: canonicalSetsJson(goal.sets),
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
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('goals')
      .values(goalRow(userId, goal, now, now))
      .returning(GOAL_COLUMNS)
      .executeTakeFirstOrThrow();
    await bumpVersionWithinGoalCap(trx, userId);
    return inserted;
  });
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
    const row = await db
      .selectFrom('goals')
      .select('id')
      .where('id', '=', goalId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }
  return db.transaction().execute(async (trx) => {
    const result = await trx
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
    const updated = Number(result.numUpdatedRows) > 0;
    if (updated) await bumpGoalsVersion(trx, userId);
    return updated;
  });
}

/** Deletes the caller's goal `goalId`; another user's or a missing goal is left alone without complaint. */
export async function deleteGoal(db: Kysely<Database>, userId: number, goalId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('goals')
      .where('id', '=', goalId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) > 0) await bumpGoalsVersion(trx, userId);
  });
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
    await trx
      .updateTable('goals')
      .set({ sets_json: canonicalSetsJson(sets) })
      .where('id', '=', goalId)
      .execute();
    await bumpGoalsVersion(trx, userId);
    return { result };
  });
}

/**
 * Appends goals (an import) in one transaction: all are stored or none. Ids are new and larger than every existing
 * one, so the goals follow the caller's existing goals in the list. Kept times are stored as given.
 */
export async function insertGoals(
  db: Kysely<Database>,
  userId: number,
  goals: Array<NewGoal & { createdAt: number | null; updatedAt: number | null }>,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const goal of goals) {
      await trx
        .insertInto('goals')
        .values(goalRow(userId, goal, goal.createdAt ?? now, goal.updatedAt ?? goal.createdAt ?? now))
        .execute();
    }
    await bumpVersionWithinGoalCap(trx, userId);
  });
}
