import { useState } from 'preact/hooks';
import { isLoggableAmount } from '../../common/goal.js';
import { roundAmount } from '../../common/progress.js';
import { api, type Goal } from '../api.js';
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
 * Logging and removing amounts through the atomic endpoints (never by sending the whole `sets`), then putting the
 * server's answer for that date into the app's goal list.
 */
export function useAmounts(goal: Goal) {
  const app = useApp();
  const [busy, setBusy] = useState(false);
  // The failure, not its text: it is translated where it is shown, so it follows a language switch.
  const [error, setError] = useState<unknown>(null);

  async function change(kind: 'add' | 'remove', date: string, amount: number): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      const answer =
        kind === 'add' ? await api.addAmount(goal.id, date, amount) : await api.removeAmount(goal.id, date, amount);
      app.putAmounts(goal.id, answer.date, answer.amounts);
      app.announce(changedText(kind, amount, goal.unit));
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  }

  return {
    /** The goal the amounts belong to (its daily target and unit, for the forms that use them). */
    goal,
    busy,
    error,
    setError,
    add: (date: string, amount: number) => change('add', date, amount),
    remove: (date: string, amount: number) => change('remove', date, amount),
  };
}

export type Amounts = ReturnType<typeof useAmounts>;
