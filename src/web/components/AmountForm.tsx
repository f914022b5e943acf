import { useState } from 'preact/hooks';
import { t } from '../i18n/index.js';
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
      amounts.setError(t('error.invalid_amount'));
      document.getElementById(id)?.focus();
      return;
    }
    if (await props.onAmount(amount)) setValue('');
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
            aria-invalid={amounts.error ? 'true' : undefined}
            aria-describedby={amounts.error ? `${id}-error` : undefined}
          />
          <button type="submit" disabled={amounts.busy}>
            {props.submitLabel}
          </button>
        </div>
      </form>
      {amounts.error && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {amounts.error}
        </p>
      )}
    </>
  );
}
