import { dayNumber } from '../common/progress.js';
import type { Goal, GoalLayout } from './api.js';

/**
 * The user's order (decision 0093): goals the layout places, in its order, then the rest in the API's creation
 * order (a goal made on this device before the layout knew it, say).
 */
export function inUserOrder(goals: readonly Goal[], layout: GoalLayout | null): Goal[] {
  const place = new Map((layout?.order ?? []).map((id, index) => [id, index]));
  return goals
    .map((goal, index) => ({ goal, rank: place.get(goal.id) ?? place.size + index }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ goal }) => goal);
}

export function isArchived(layout: GoalLayout | null, goalId: string): boolean {
  return layout?.archived.includes(goalId) ?? false;
}

/** Today's sections, each in the user's order; archived goals are in none. */
export function todaySections(goals: readonly Goal[], layout: GoalLayout | null, today: string) {
  const shown = inUserOrder(goals, layout).filter((goal) => !isArchived(layout, goal.id));
  return {
    running: shown.filter((goal) => dayNumber(goal, today) >= 1 && dayNumber(goal, today) <= goal.days),
    upcoming: shown.filter((goal) => dayNumber(goal, today) === 0),
    finished: shown.filter((goal) => dayNumber(goal, today) > goal.days),
  };
}
