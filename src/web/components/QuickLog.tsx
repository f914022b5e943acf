import { useState } from 'preact/hooks';
import { quickAmounts } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { formatNumber, t } from '../i18n/index.js';
import { parseAmount, useAmounts } from './amounts.js';

/** One-tap logging for today: round steps and the daily target, a custom amount, and undo of the last entry. */
export function QuickLog({ goal, today }: { goal: Goal; today: string }) {
  const amounts = useAmounts(goal);
  const [custom, setCustom] = useState('');
  const todays = goal.sets[today] ?? [];
  const last = todays[todays.length - 1];
  const customId = `amount-${goal.id}`;

  async function addCustom(event: Event) {
    event.preventDefault();
    const amount = parseAmount(custom);
    if (amount === null) {
      amounts.setError(t('error.invalid_amount'));
      document.getElementById(customId)?.focus();
      return;
    }
    if (await amounts.add(today, amount)) setCustom('');
  }

  return (
    <div class="quicklog">
      {/* Each button's accessible name is its visible "+10" plus the unit (WCAG 2.5.3 label in name). */}
      <div class="quick-buttons" role="group" aria-label={t('goal.quickLabel')}>
        {quickAmounts(goal.daily).map((amount) => (
          <button key={amount} type="button" class="quick" disabled={amounts.busy} onClick={() => void amounts.add(today, amount)}>
            +{formatNumber(amount)}
            <span class="visually-hidden"> {goal.unit}</span>
          </button>
        ))}
      </div>
      <form class="custom-amount" onSubmit={addCustom} noValidate>
        <label for={customId}>{t('goal.custom')}</label>
        <div class="inline">
          <input
            id={customId}
            type="number"
            inputMode="decimal"
            min="0"
            step="any"
            value={custom}
            onInput={(event) => setCustom(event.currentTarget.value)}
            aria-invalid={amounts.error ? 'true' : undefined}
            aria-describedby={amounts.error ? `${customId}-error` : undefined}
          />
          <button type="submit" disabled={amounts.busy}>
            {t('goal.add')}
          </button>
        </div>
      </form>
      {amounts.error && (
        <p class="field-error" id={`${customId}-error`} role="alert">
          {amounts.error}
        </p>
      )}
      <button type="button" class="link-button undo" disabled={amounts.busy || last === undefined} onClick={() => last !== undefined && void amounts.remove(today, last)}>
        ↶ {t('goal.undo')}
        {last !== undefined && ` (${formatNumber(last)})`}
      </button>
    </div>
  );
}
