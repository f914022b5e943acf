import type { GoalSets } from '../../common/goal.js';
import type { GoalRow } from '../db/schema.js';

/** The columns a Goal answer is made of. */
export type GoalRecord = Pick<GoalRow, 'id' | 'name' | 'unit' | 'daily' | 'days' | 'start' | 'sets_json'>;

/**
 * `sets` as stored: JSON with its dates in ascending order, no white space. The stored text is exactly what a
 * response carries, so reading never parses it (docs/decisions/0033-goal-list-hot-path.md).
 */
export function canonicalSetsJson(sets: GoalSets): string {
  const ordered: GoalSets = {};
  for (const date of Object.keys(sets).sort()) ordered[date] = sets[date]!;
  return JSON.stringify(ordered);
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
