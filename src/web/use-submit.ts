import { useState } from 'preact/hooks';
import { errorText, type ShownError, showError } from './errors.js';

/**
 * The submit cycle every form shares: prevent the page load, run the action once at a time, and put a failure
 * next to its field (focused, so keyboard and screen-reader users land on it) or above the form. The action may
 * throw a FieldProblem for what it finds wrong before asking the server.
 */
export function useSubmit(fields: readonly string[], action: () => Promise<void>, rename: Record<string, string> = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);

  async function submit(event?: Event) {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      const shown = showError(failure, fields, rename);
      setError(shown);
      if (shown.field) requestAnimationFrame(() => document.getElementById(shown.field!)?.focus());
    } finally {
      setBusy(false);
    }
  }

  return {
    busy,
    submit,
    // Translated while rendering, so a message follows a language switch.
    fieldError: (field: string) => (error?.field === field ? errorText(error.failure) : null),
    formError: error && error.field === null ? errorText(error.failure) : null,
  };
}
