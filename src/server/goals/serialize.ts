import { GOAL_LIMITS, type GoalSets } from '../../common/goal.js';
import { badRequest } from '../http/errors.js';
import type { GoalRow } from '../db/schema.js';

/** The columns a Goal answer is made of. */
export type GoalRecord = Pick<GoalRow, 'id' | 'name' | 'unit' | 'daily' | 'days' | 'start' | 'sets_json'>;

/**
 * `sets` as stored: JSON with its dates in ascending order, no white space. The stored text is exactly what a
 * response carries, so reading never parses it (docs/decisions/0033-goal-list-hot-path.md). Every write of
 * `sets_json` comes through here, so this is where its size cap holds: 400 `goal_too_large` above it.
 */
export function canonicalSetsJson(sets: GoalSets): string {
  const ordered: GoalSets = {};
  for (const date of Object.keys(sets).sort()) ordered[date] = sets[date]!;
  const json = JSON.stringify(ordered);
  // Dates and numbers are ASCII, so characters are bytes.
  if (json.length > GOAL_LIMITS.setsJsonMaxBytes) {
    throw badRequest('goal_too_large', `a goal's sets may take at most ${GOAL_LIMITS.setsJsonMaxBytes} bytes stored`);
  }
  return json;
}

/**
 * One Goal as JSON text. Scalars go through JSON.stringify; `sets_json` is spliced in as it is, which is safe
 * because only `canonicalSetsJson` ever writes that column. `id` becomes a string, as the spec says.
 */
export function goalJson(goal: GoalRecord): string {
  return (
    `{"id":"${goal.id}","name":${JSON.stringify(goal.name)},"unit":${JSON.stringify(goal.unit)},` +
    `"daily":${JSON.stringify(goal.daily)},"days":${JSON.stringify(goal.days)},` +
    `"start":${JSON.stringify(goal.start)},"sets":${goal.sets_json}}`
  );
}

export function goalListJson(goals: GoalRecord[]): string {
  return `[${goals.map(goalJson).join(',')}]`;
}
