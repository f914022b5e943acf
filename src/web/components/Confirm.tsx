import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n/index.js';

interface ConfirmProps {
  /** Id of the question, which names the group for assistive technology. */
  id: string;
  question: string;
  yesLabel: string;
  busy: boolean;
  onYes(): void;
  /** The caller hides the question and returns the focus to the button that asked it. */
  onCancel(): void;
}

/** A destructive question asked in place; "Yes" takes the focus as it appears, so Enter or Space answers it. */
export function Confirm({ id, question, yesLabel, busy, onYes, onCancel }: ConfirmProps) {
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    yes.current?.focus();
  }, []);
  return (
    <div class="confirm" role="group" aria-labelledby={id}>
      <p id={id}>{question}</p>
      <div class="inline">
        <button ref={yes} type="button" class="danger" disabled={busy} onClick={onYes}>
          {yesLabel}
        </button>
        <button type="button" onClick={onCancel}>
          {t('app.cancel')}
        </button>
      </div>
    </div>
  );
}
