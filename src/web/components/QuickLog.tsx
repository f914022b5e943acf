import { quickAmounts } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { formatNumber, t } from '../i18n/index.js';
import { unitText } from '../../common/units.js';
import { AmountForm } from './AmountForm.js';
import { PendingNote } from './PendingNote.js';
import { useLogging } from './amounts.js';

/**
 * One-tap logging for today: round steps and the daily target, a custom amount, and undo of the last entry. Like
 * Today, it goes through the outbox (decision 0138): shown at once, sent with an `entry_id` when the network allows,
 * so a lost answer or a dead spot never logs twice or loses a tap.
 */
export function QuickLog({ goal, today }: { goal: Goal; today: string }) {
  const logging = useLogging(goal, today);
  // Named by what undo takes back: this device's last entry first, which another device's later entry can follow.
  const last = logging.undoAmount();

  return (
    <div class="quicklog">
      {/* Each button's accessible name is its visible "+10" plus the unit (WCAG 2.5.3 label in name). */}
      <div class="quick-buttons" role="group" aria-label={t('goal.quickLabel')}>
        {quickAmounts(goal.daily).map((amount) => (
          <button key={amount} type="button" class="quick" onClick={() => logging.log(amount)}>
            +{formatNumber(amount)}
            <span class="visually-hidden"> {unitText(goal.unit, amount)}</span>
          </button>
        ))}
      </div>
      <PendingNote goalId={goal.id} />
      <AmountForm
        id={`amount-${goal.id}`}
        label={t('goal.custom')}
        submitLabel={t('goal.add')}
        goal={goal}
        onAmount={logging.log}
      />
      <button type="button" class="link-button undo" disabled={last === null} onClick={() => logging.takeBack()}>
        <span aria-hidden="true">↶</span> {t('goal.undo')}
        {last !== null && ` (${formatNumber(last)})`}
      </button>
    </div>
  );
}
