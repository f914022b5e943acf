import { useState } from 'preact/hooks';
import { isLoggableAmount } from '../../common/goal.js';
import { roundAmount } from '../../common/progress.js';
import { api, type Goal } from '../api.js';
import { useApp } from '../context.js';
import { formatNumber, t } from '../i18n/index.js';

/** A typed amount, or null unless it is a positive number the logging endpoints accept. */
export function parseAmount(raw: string): number | null {
  if (raw.trim() === '') return null;
  const value = roundAmount(Number(raw));
  return isLoggableAmount(value) && value > 0 ? value : null;
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
      const vars = { amount: formatNumber(amount), unit: goal.unit };
      app.announce(kind === 'add' ? t('goal.logged', vars) : t('goal.removed', vars));
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  }

  return {
    busy,
    error,
    setError,
    add: (date: string, amount: number) => change('add', date, amount),
    remove: (date: string, amount: number) => change('remove', date, amount),
  };
}

export type Amounts = ReturnType<typeof useAmounts>;
