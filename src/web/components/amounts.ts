import { isLoggableAmount } from '../../common/goal.js';
import { roundAmount } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { useApp } from '../context.js';
import { formatNumber, parseDecimal, t, tp } from '../i18n/index.js';
import { countsOccurrences, unitText } from '../../common/units.js';

/** A typed amount ("2,5" in German and Polish), or null unless it is a positive number the endpoints accept. */
export function parseAmount(raw: string): number | null {
  const typed = parseDecimal(raw);
  if (typed === null) return null;
  const value = roundAmount(typed);
  return isLoggableAmount(value) && value > 0 ? value : null;
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
