/**
 * Where a goal stands, in words: one phrase for every place that shows today's amount (the goal page, the Today
 * screen), so an upcoming or finished goal never reads "0 / 50 today".
 */
import {
  dayTotal,
  daysBetween,
  goalTotals,
  type GoalProgressInput,
  isWithinGoal,
  startDateKey,
} from '../common/progress.js';
import { t, text } from './i18n/index.js';
import { unitText } from '../common/units.js';

export type GoalPhase = 'upcoming' | 'running' | 'finished';

export function goalPhase(goal: Pick<GoalProgressInput, 'start' | 'days'>, today: string): GoalPhase {
  if (isWithinGoal(goal, today)) return 'running';
  return today < startDateKey(goal) ? 'upcoming' : 'finished';
}

/** How a status with amounts is worded: `t`, or `withFigures` where its numbers must never break inside. */
type Say<T> = (
  key: 'goal.startsIn' | 'goal.finishedTotal' | 'goal.todayText',
  vars: Record<string, string | number>,
) => T;

/**
 * "35 / 50 push-ups today" while the goal runs, "Starts in 3 days" before, "Finished: 1,420 of 1,500 push-ups"
 * after; numbers in the user's language, the unit in the form its count needs.
 */
export function goalStatusText(goal: GoalProgressInput & { unit: string }, today: string): string;
export function goalStatusText<T>(goal: GoalProgressInput & { unit: string }, today: string, say: Say<T>): T;
export function goalStatusText(goal: GoalProgressInput & { unit: string }, today: string, say: Say<unknown> = text) {
  switch (goalPhase(goal, today)) {
    case 'upcoming':
      return say('goal.startsIn', { count: daysBetween(today, startDateKey(goal)) });
    case 'finished': {
      const { done, target } = goalTotals(goal);
      return say('goal.finishedTotal', { done, target, unit: unitText(goal.unit, target, 'of') });
    }
    case 'running':
      return say('goal.todayText', {
        done: dayTotal(goal.sets, today),
        target: goal.daily,
        unit: unitText(goal.unit, goal.daily),
      });
  }
}

/** The ring's label while the goal runs: "35 of 50 push-ups today", the unit in its form after "of". */
export function todayRingLabel(goal: GoalProgressInput & { unit: string }, today: string): string {
  return t('goal.ringLabel', {
    done: dayTotal(goal.sets, today),
    target: goal.daily,
    unit: unitText(goal.unit, goal.daily, 'of'),
  });
}
