import { useState } from 'preact/hooks';
import { roundAmount } from '../../common/progress.js';
import { api, type Goal } from '../api.js';
import { useApp } from '../context.js';
import { errorText } from '../errors.js';
import { formatNumber, t } from '../i18n/index.js';

/** Parses a typed amount ("2,5" too); null unless it is a positive finite number. */
export function parseAmount(raw: string): number | null {
  const value = Number(raw.trim().replace(',', '.'));
  return raw.trim() !== '' && Number.isFinite(value) && value > 0 ? roundAmount(value) : null;
}

/**
 * Logging and removing amounts through the atomic endpoints (never by sending the whole `sets`), then putting the
 * server's answer for that date into the goal the app holds.
 */
export function useAmounts(goal: Goal) {
  const app = useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function change(kind: 'add' | 'remove', date: string, amount: number): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      const answer = kind === 'add' ? await api.addAmount(goal.id, date, amount) : await api.removeAmount(goal.id, date, amount);
      const sets = { ...goal.sets };
      if (answer.amounts.length > 0) sets[answer.date] = answer.amounts;
      else delete sets[answer.date];
      app.putGoal({ ...goal, sets });
      const vars = { amount: formatNumber(amount), unit: goal.unit };
      app.announce(kind === 'add' ? t('goal.logged', vars) : t('goal.removed', vars));
      return true;
    } catch (failure) {
      setError(errorText(failure));
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
