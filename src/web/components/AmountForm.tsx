import { useState } from 'preact/hooks';
import { errorText, FieldProblem } from '../errors.js';
import { formatNumber, t } from '../i18n/index.js';
import { unitText } from '../../common/units.js';
import { isSurprising, parseAmount, type Amounts } from './amounts.js';
import { Confirm } from './Confirm.js';

/**
 * A typed amount: a text field that takes the language's decimal comma ("2,5"), its add button, and the error of
 * the last logging attempt beneath it (also shown for a failed quick button or removal, since they share
 * `amounts`). An amount over 100 daily targets is asked about first. Empties itself after a success.
 */
export function AmountForm(props: {
  id: string;
  label: string;
  submitLabel: string;
  amounts: Amounts;
  onAmount: (amount: number) => Promise<boolean>;
}) {
  const { id, amounts } = props;
  const [value, setValue] = useState('');
  /** An amount waiting for "Yes, log it". */
  const [asking, setAsking] = useState<number | null>(null);

  async function log(amount: number) {
    // The user may have typed the next amount while this one was on its way; keep that.
    if (await props.onAmount(amount)) setValue((current) => (current === value ? '' : current));
  }

  async function submit(event: Event) {
    event.preventDefault();
    const amount = parseAmount(value);
    if (amount === null) {
      amounts.setError(new FieldProblem('amount', 'invalid_amount'));
      document.getElementById(id)?.focus();
      return;
    }
    if (isSurprising(amount, amounts.goal.daily)) {
      amounts.setError(null);
      setAsking(amount);
      return;
    }
    await log(amount);
  }

  function answer(yes: boolean) {
    const amount = asking;
    setAsking(null);
    if (yes && amount !== null) void log(amount);
    // The question goes away; the field it came from takes the focus back (to log, or to correct the amount).
    requestAnimationFrame(() => document.getElementById(id)?.focus());
  }

  return (
    <>
      <form class="custom-amount" onSubmit={submit} noValidate>
        <label for={id}>{props.label}</label>
        <div class="inline">
          <input
            id={id}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={value}
            onInput={(event) => setValue(event.currentTarget.value)}
            aria-invalid={amounts.error !== null ? 'true' : undefined}
            aria-describedby={amounts.error !== null ? `${id}-error` : undefined}
          />
          <button type="submit" disabled={amounts.busy || asking !== null}>
            {props.submitLabel}
          </button>
        </div>
      </form>
      {asking !== null && (
        <Confirm
          id={`${id}-surprising`}
          question={t('goal.surprising', {
            amount: formatNumber(asking),
            unit: unitText(amounts.goal.unit, asking),
          })}
          yesLabel={t('goal.surprisingYes')}
          danger={false}
          busy={amounts.busy}
          onYes={() => answer(true)}
          onCancel={() => answer(false)}
        />
      )}
      {amounts.error !== null && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {errorText(amounts.error)}
        </p>
      )}
    </>
  );
}
