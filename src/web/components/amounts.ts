import { GOAL_LIMITS } from '../../common/goal.js';
import { roundAmount } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { useApp } from '../context.js';
import { FieldProblem } from '../errors.js';
import { formatNumber, parseDecimal, t, tp } from '../i18n/index.js';
import { countsOccurrences, unitText } from '../../common/units.js';

/**
 * A typed amount ("2,5" in German and Polish), or why the endpoints would not take it, in words that say which:
 * not a number in digits ("1e6"), more than their limit, or not more than 0 ("-5").
 */
export function parseAmount(raw: string): number | FieldProblem {
  const negative = /^\s*-/.test(raw);
  const typed = parseDecimal(negative ? raw.replace('-', '') : raw);
  const problem = (text?: 'goal.amountDigits' | 'goal.amountTooLarge') =>
    new FieldProblem('amount', 'invalid_amount', text);
  if (typed === null) return problem('goal.amountDigits');
  const value = roundAmount(typed);
  if (value > GOAL_LIMITS.amountAbsMax) return problem('goal.amountTooLarge');
  return value > 0 && !negative ? value : problem();
}

/** Typed amounts above this many daily targets are asked about first: a slip of the keyboard, most likely. */
export const SURPRISING_FACTOR = 100;

export function isSurprising(amount: number, daily: number): boolean {
  return amount > SURPRISING_FACTOR * daily;
}

/** "Logged 5 reps.", "Logged once.", "3 Mal entfernt.": what the screen reader hears after a change. */
export function changedText(kind: 'add' | 'remove', amount: number, unit: string): string {
  if (countsOccurrences(unit)) return tp(kind === 'add' ? 'goal.loggedTimes' : 'goal.removedTimes', amount);
  const vars = { amount: formatNumber(amount), unit: unitText(unit, amount) };
  return kind === 'add' ? t('goal.logged', vars) : t('goal.removed', vars);
}

/**
 * Logging and taking back amounts of one goal and date through the outbox (decisions 0095, 0138): shown at once,
 * sent when the network allows, never twice; each change is said to the screen reader.
 */
export function useLogging(goal: Pick<Goal, 'id' | 'unit'>, date: string) {
  const app = useApp();
  return {
    log(amount: number): void {
      app.logAmount(goal.id, date, amount);
      app.announce(changedText('add', amount, goal.unit));
    },
    /** This device's last entry of the date first (of `amount` when given); the amount taken back, or null. */
    takeBack(amount?: number): number | null {
      const taken = app.takeBack(goal.id, date, amount);
      app.announce(taken === null ? t('today.nothingToUndo') : changedText('remove', taken, goal.unit));
      return taken;
    },
    /** What `takeBack()` would take back now, or null. */
    undoAmount(): number | null {
      return app.undoAmount(goal.id, date);
    },
  };
}
