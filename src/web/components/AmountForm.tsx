import { useState } from 'preact/hooks';
import { errorText, FieldProblem } from '../errors.js';
import { formatNumber, t } from '../i18n/index.js';
import { unitText } from '../../common/units.js';
import type { Goal } from '../api.js';
import { isSurprising, parseAmount } from './amounts.js';
import { Confirm } from './Confirm.js';

/**
 * A typed amount: a text field that takes the language's decimal comma ("2,5"), its add button, and what is wrong
 * with the typed amount beneath it. An amount over 100 daily targets of `goal` is asked about first. The amount goes
 * to `onAmount` (the outbox: nothing to wait for) and the field empties. With a `placeholder` (Today's compact row)
 * the label is for screen readers only and the placeholder names the field.
 */
export function AmountForm(props: {
  id: string;
  label: string;
  placeholder?: string;
  submitLabel: string;
  goal: Pick<Goal, 'daily' | 'unit'>;
  onAmount: (amount: number) => void;
}) {
  const { id, goal } = props;
  const [value, setValue] = useState('');
  const [error, setError] = useState<FieldProblem | null>(null);
  /** An amount waiting for "Yes, log it". */
  const [asking, setAsking] = useState<number | null>(null);

  function log(amount: number) {
    props.onAmount(amount);
    setValue('');
  }

  function submit(event: Event) {
    event.preventDefault();
    const amount = parseAmount(value);
    if (amount instanceof FieldProblem) {
      setError(amount);
      document.getElementById(id)?.focus();
      return;
    }
    setError(null);
    if (isSurprising(amount, goal.daily)) {
      setAsking(amount);
      return;
    }
    log(amount);
  }

  function answer(yes: boolean) {
    const amount = asking;
    setAsking(null);
    if (yes && amount !== null) log(amount);
    // The question goes away; the field it came from takes the focus back (to log, or to correct the amount).
    requestAnimationFrame(() => document.getElementById(id)?.focus());
  }

  return (
    <>
      <form class="custom-amount" onSubmit={submit} noValidate>
        <label for={id} class={props.placeholder === undefined ? undefined : 'visually-hidden'}>
          {props.label}
        </label>
        <div class="inline">
          <input
            id={id}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            placeholder={props.placeholder}
            value={value}
            onInput={(event) => setValue(event.currentTarget.value)}
            aria-invalid={error !== null ? 'true' : undefined}
            aria-describedby={error !== null ? `${id}-error` : undefined}
          />
          <button type="submit" disabled={asking !== null}>
            {props.submitLabel}
          </button>
        </div>
      </form>
      {asking !== null && (
        <Confirm
          id={`${id}-surprising`}
          question={t('goal.surprising', {
            amount: formatNumber(asking),
            unit: unitText(goal.unit, asking),
          })}
          yesLabel={t('goal.surprisingYes')}
          danger={false}
          onYes={() => answer(true)}
          onCancel={() => answer(false)}
        />
      )}
      {error !== null && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {errorText(error)}
        </p>
      )}
    </>
  );
}
