import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The goal layout's SQL (decision 0093): each goal's place in its owner's order and its archive state, in the
 * `goal_layout` table. Goals never placed come after the placed ones in creation order.
 */

type Db = Kysely<Database>;

export interface GoalLayout {
  /** Every goal of the user, archived ones included, in the user's order. */
  order: number[];
  archived: number[];
}

export async function readGoalLayout(db: Db, userId: number): Promise<GoalLayout> {
  const rows = await db
    .selectFrom('goals')
    .leftJoin('goal_layout', 'goal_layout.goal_id', 'goals.id')
    .select(['goals.id as id', 'goal_layout.archived_at as archived_at'])
    .where('goals.user_id', '=', userId)
    .orderBy(sql`case when goal_layout.position is null then 1 else 0 end`)
    .orderBy('goal_layout.position')
    .orderBy('goals.id')
    .execute();
  return {
    order: rows.map((row) => row.id),
    archived: rows.filter((row) => row.archived_at !== null).map((row) => row.id),
  };
}

/** The ids among `goalIds` that are not goals of the user (another user's, deleted, never existing). */
async function foreignGoalIds(db: Db, userId: number, goalIds: number[]): Promise<number[]> {
  if (goalIds.length === 0) return [];
  const own = await db
    .selectFrom('goals')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', 'in', goalIds)
    .execute();
  const ownIds = new Set(own.map((row) => row.id));
  return goalIds.filter((id) => !ownIds.has(id));
}

/**
 * Places the listed goals first, in the listed order; the user's other goals lose their place (they follow in
 * creation order). Answers the ids that are not the user's goals, and then changes nothing.
 */
export async function setGoalOrder(db: Db, userId: number, goalIds: number[]): Promise<number[]> {
  return db
    .transaction()
    .execute(async (trx) => {
      // Takes SQLite's write lock at once / locks the user's goal rows, so two devices reordering serialise.
      await trx.updateTable('goal_layout').set({ position: null }).where('user_id', '=', userId).execute();
      const foreign = await foreignGoalIds(trx, userId, goalIds);
      if (foreign.length > 0) {
        // Undo the reset above: nothing changes for a refused request.
        throw new ForeignGoals(foreign);
      }
      await placeInOrder(trx, userId, goalIds);
      return [];
    })
    .catch((error: unknown) => {
      if (error instanceof ForeignGoals) return error.goalIds;
      throw error;
    });
}

/**
 * Gives the user's goals `goalIds` the positions 0, 1, ... in one statement (at most the goal cap of rows); a goal
 * without a layout row gets one, not archived, and an archived goal stays archived.
 */
async function placeInOrder(trx: Db, userId: number, goalIds: number[]): Promise<void> {
  if (goalIds.length === 0) return;
  await trx
    .insertInto('goal_layout')
    .values(goalIds.map((goalId, position) => ({ goal_id: goalId, user_id: userId, position, archived_at: null })))
    .onConflict((oc) => oc.column('goal_id').doUpdateSet((eb) => ({ position: eb.ref('excluded.position') })))
    .execute();
}

class ForeignGoals extends Error {
  constructor(readonly goalIds: number[]) {
    super('not the user’s goals');
  }
}

/** Archives (`now`) or restores (null) one goal of the user; false when the user has no such goal. */
export async function setGoalArchived(db: Db, userId: number, goalId: number, archivedAt: number | null) {
  return db.transaction().execute(async (trx) => {
    if ((await foreignGoalIds(trx, userId, [goalId])).length > 0) return false;
    await trx
      .insertInto('goal_layout')
      .values({ goal_id: goalId, user_id: userId, position: null, archived_at: archivedAt })
      .onConflict((oc) => oc.column('goal_id').doUpdateSet({ archived_at: archivedAt }))
      .execute();
    return true;
  });
}

/** An imported goal's layout as its export gave it (decision 0125). */
export interface ImportedLayout {
  goalId: number;
  /** Its place in the exporter's order; null when it had none. */
  position: number | null;
  archivedAt: number | null;
}

/**
 * After an import, in its transaction: the imported goals that had a place in the exporter's order follow every
 * goal the user already had, in the exporter's order, and the archived ones stay archived. Placing them after the
 * user's goals places those too, in the order they had; without any placed import the user's layout is not touched.
 * Imported goals without a place follow the placed ones in creation order, as they did in the export.
 */
export async function addImportedLayout(trx: Db, userId: number, imported: ImportedLayout[]): Promise<void> {
  const placed = imported
    .filter((goal) => goal.position !== null)
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const positions = new Map<number, number>();
  if (placed.length > 0) {
    const importedIds = new Set(imported.map((goal) => goal.goalId));
    const own = (await readGoalLayout(trx, userId)).order.filter((goalId) => !importedIds.has(goalId));
    placed.forEach((goal, rank) => positions.set(goal.goalId, own.length + rank));
    await placeInOrder(trx, userId, own);
  }
  const importedRows = imported
    .map((goal) => ({
      goal_id: goal.goalId,
      user_id: userId,
      position: positions.get(goal.goalId) ?? null,
      archived_at: goal.archivedAt,
    }))
    .filter((row) => row.position !== null || row.archived_at !== null);
  if (importedRows.length > 0) await trx.insertInto('goal_layout').values(importedRows).execute();
}
