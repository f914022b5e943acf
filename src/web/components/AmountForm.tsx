import { useState } from 'preact/hooks';
import { errorText, FieldProblem } from '../errors.js';
import { parseAmount, type Amounts } from './amounts.js';

/**
 * A typed amount: a number field, its add button, and the error of the last logging attempt beneath it (also
 * shown for a failed quick button or removal, since they share `amounts`). Empties itself after a success.
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

  async function submit(event: Event) {
    event.preventDefault();
    const amount = parseAmount(value);
    if (amount === null) {
      amounts.setError(new FieldProblem('amount', 'invalid_amount'));
      document.getElementById(id)?.focus();
      return;
    }
    // The user may have typed the next amount while this one was on its way; keep that.
    if (await props.onAmount(amount)) setValue((current) => (current === value ? '' : current));
  }

  return (
    <>
      <form class="custom-amount" onSubmit={submit} noValidate>
        <label for={id}>{props.label}</label>
        <div class="inline">
          <input
            id={id}
            type="number"
            inputMode="decimal"
            min="0"
            step="any"
            value={value}
            onInput={(event) => setValue(event.currentTarget.value)}
            aria-invalid={amounts.error !== null ? 'true' : undefined}
            aria-describedby={amounts.error !== null ? `${id}-error` : undefined}
          />
          <button type="submit" disabled={amounts.busy}>
            {props.submitLabel}
          </button>
        </div>
      </form>
      {amounts.error !== null && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {errorText(amounts.error)}
        </p>
      )}
    </>
  );
}
