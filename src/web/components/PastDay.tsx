import { useRef, useState } from 'preact/hooks';
import { isDateKey } from '../../common/goal.js';
import { dayTotal, endDateKey, isWithinGoal, startDateKey } from '../../common/progress.js';
import type { Goal } from '../api.js';
import { formatDay, formatNumber, t } from '../i18n/index.js';
import { AmountForm } from './AmountForm.js';
import { Field } from './Field.js';
import { Figure, UnitAfter } from './Figure.js';
import { useLogging } from './amounts.js';

/**
 * Pick a day of the goal (up to today), see what was logged then, remove an entry or add one. Both go through the
 * outbox, as on Today (decision 0138): shown at once, sent when the network allows, never twice.
 */
export function PastDay({ goal, today }: { goal: Goal; today: string }) {
  const first = startDateKey(goal);
  const last = endDateKey(goal) < today ? endDateKey(goal) : today;
  const [date, setDate] = useState(last >= first ? last : first);
  const logging = useLogging(goal, date);
  const dayHeading = useRef<HTMLHeadingElement>(null);
  if (last < first) return null;
  const valid = isDateKey(date) && isWithinGoal(goal, date) && date <= today;
  const logged = valid ? (goal.sets[date] ?? []) : [];

  function removeEntry(value: number) {
    // The pressed button goes away with its entry; the day's heading, with the new total, takes the focus.
    if (logging.takeBack(value) !== null) dayHeading.current?.focus();
  }

  return (
    <section class="card stack past-day" aria-labelledby="past-title">
      <h2 id="past-title">{t('past.title')}</h2>
      <Field
        id="past-date"
        label={t('past.date')}
        type="date"
        min={first}
        max={last}
        required
        value={date}
        onValue={setDate}
        error={valid ? null : t('error.invalid_date')}
      />
      {valid && (
        <>
          <h3 ref={dayHeading} tabIndex={-1}>
            {t('past.amounts', { date: formatDay(date) })}: <Figure value={dayTotal(goal.sets, date)} /> /{' '}
            <Figure value={goal.daily} />
            <UnitAfter unit={goal.unit} count={goal.daily} />
          </h3>
          {logged.length === 0 ? (
            <p class="muted">{t('past.none')}</p>
          ) : (
            <ul class="amount-list">
              {logged.map((value, index) => (
                <li key={`${index}-${value}`}>
                  <span>
                    <Figure value={value} />
                    <UnitAfter unit={goal.unit} count={value} />
                  </span>
                  <button type="button" class="small" onClick={() => removeEntry(value)}>
                    {t('past.remove', { amount: formatNumber(value) })}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <AmountForm
            id="past-amount"
            label={t('past.amount')}
            submitLabel={t('past.add')}
            goal={goal}
            onAmount={logging.log}
          />
        </>
      )}
    </section>
  );
}
