import { quickAmounts } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { formatNumber, t } from '../i18n/index.js';
import { unitText } from '../../common/units.js';
import { AmountForm } from './AmountForm.js';
import { useAmounts } from './amounts.js';

/** One-tap logging for today: round steps and the daily target, a custom amount, and undo of the last entry. */
export function QuickLog({ goal, today }: { goal: Goal; today: string }) {
  const amounts = useAmounts(goal);
  const todays = goal.sets[today] ?? [];
  const last = todays[todays.length - 1];

  return (
    <div class="quicklog">
      {/* Each button's accessible name is its visible "+10" plus the unit (WCAG 2.5.3 label in name). */}
      <div class="quick-buttons" role="group" aria-label={t('goal.quickLabel')}>
        {quickAmounts(goal.daily).map((amount) => (
          <button
            key={amount}
            type="button"
            class="quick"
            disabled={amounts.busy}
            onClick={() => void amounts.add(today, amount)}
          >
            +{formatNumber(amount)}
            <span class="visually-hidden"> {unitText(goal.unit, amount)}</span>
          </button>
        ))}
      </div>
      <AmountForm
        id={`amount-${goal.id}`}
        label={t('goal.custom')}
        submitLabel={t('goal.add')}
        amounts={amounts}
        onAmount={(amount) => amounts.add(today, amount)}
      />
      <button
        type="button"
        class="link-button undo"
        disabled={amounts.busy || last === undefined}
        onClick={() => last !== undefined && void amounts.remove(today, last)}
      >
        <span aria-hidden="true">↶</span> {t('goal.undo')}
        {last !== undefined && ` (${formatNumber(last)})`}
      </button>
    </div>
  );
}
