import { useLayoutEffect, useRef } from 'preact/hooks';
import { t } from '../i18n/index.js';

interface ConfirmProps {
  /** Id of the question, which names the group for assistive technology. */
  id: string;
  question: string;
  yesLabel: string;
  /** The answer is on its way: Yes is disabled and Escape waits. Left out for a question answered at once. */
  busy?: boolean;
  /** Red "Yes" for what cannot be undone (the default); a plain one for a question like "log 5,000?". */
  danger?: boolean;
  onYes(): void;
  /** The caller hides the question and returns the focus to the button that asked it (Cancel or Escape). */
  onCancel(): void;
}

/**
 * A destructive question asked in place; "Yes" takes the focus as it appears, so Enter or Space answers it, and
 * Escape anywhere inside it cancels, as it would close a dialog.
 */
export function Confirm({ id, question, yesLabel, busy = false, danger = true, onYes, onCancel }: ConfirmProps) {
  const yes = useRef<HTMLButtonElement>(null);
  // In the commit that shows the question, not after the next paint (useEffect): a key pressed or a screen reader
  // reading at once already finds "Yes" focused, and a test that sees the question sees the focus too.
  useLayoutEffect(() => {
    yes.current?.focus();
  }, []);
  return (
    <div
      class={danger ? 'confirm' : 'confirm confirm-plain'}
      role="group"
      aria-labelledby={id}
      onKeyDown={(event) => cancelOnEscape(event, busy, onCancel)}
    >
      <p id={id}>{question}</p>
      <div class="inline">
        <button ref={yes} type="button" class={danger ? 'danger' : 'primary'} disabled={busy} onClick={onYes}>
          {yesLabel}
        </button>
        <button type="button" onClick={onCancel}>
          {t('app.cancel')}
        </button>
      </div>
    </div>
  );
}

function cancelOnEscape(event: KeyboardEvent, busy: boolean, onCancel: () => void): void {
  if (event.key !== 'Escape' || busy) return;
  // Inside a form, Escape must not also reach the page (or clear a field); the question is what it closes.
  event.preventDefault();
  event.stopPropagation();
  onCancel();
}
