import { GOAL_LIMITS, type GoalSets } from '../../common/goal.js';
import { badRequest, notFound } from '../http/errors.js';

/**
 * The two edits of the logging endpoints, applied to a goal's `sets` in place inside the caller's transaction
 * (docs/api-logging.md). Each returns the date's amounts after the edit.
 */

export function appendAmount(sets: GoalSets, date: string, amount: number): number[] {
  const amounts = sets[date];
  if (amounts === undefined && Object.keys(sets).length >= GOAL_LIMITS.setsDatesMax) {
    throw badRequest('too_many_dates', `a goal may hold amounts on at most ${GOAL_LIMITS.setsDatesMax} dates`);
  }
  if (amounts !== undefined && amounts.length >= GOAL_LIMITS.amountsPerDateMax) {
    throw badRequest('too_many_amounts', `a date may hold at most ${GOAL_LIMITS.amountsPerDateMax} amounts`);
  }
  const updated = [...(amounts ?? []), amount];
  sets[date] = updated;
  return updated;
}

/** Removes the last occurrence (an undo of the latest logging); a date left without amounts leaves `sets`. */
export function removeLastAmount(sets: GoalSets, date: string, amount: number): number[] {
  const amounts = sets[date] ?? [];
  const index = amounts.lastIndexOf(amount);
  if (index === -1) throw notFound('amount_not_found', `amount ${amount} is not logged on ${date}`);
  const updated = amounts.filter((_, i) => i !== index);
  if (updated.length === 0) delete sets[date];
  else sets[date] = updated;
  return updated;
}
