import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type ShownError, showError } from './errors.js';

/** What an action says when it succeeded, made when shown so it follows a language switch. */
export type Success = () => string;

type Action = () => Promise<Success | void>;

/** Every mounted form's way to drop its success message: a submit anywhere on the page makes the others' old news. */
const successClearers = new Set<() => void>();

/**
 * The submit cycle every form shares: prevent the page load, run the action once at a time, and put a failure
 * next to its field (focused, so keyboard and screen-reader users land on it) or above the form. The action may
 * throw a FieldProblem for what it finds wrong before asking the server, and return its success message.
 *
 * A success message goes once the form is edited again (`edited`, the form's `onInput`): next to changed values it
 * would claim they were saved. A failure stays until the next submit, next to the value it is about. A submit of any
 * form also drops every other form's success message (decision 0195): two at once would both read as the latest.
 */
export function useSubmit(fields: readonly string[], action: Action, rename: Record<string, string> = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  // Wrapped: a function given to a state setter would be called as an updater.
  const [success, setSuccess] = useState<{ text: Success } | null>(null);
  // Counts edits, so that a value changed while its submit was on its way is not called saved when the answer comes.
  const edits = useRef(0);
  useEffect(() => {
    const clear = () => setSuccess(null);
    successClearers.add(clear);
    return () => successClearers.delete(clear);
  }, []);

  async function run(act: Action) {
    if (busy) return;
    setBusy(true);
    setError(null);
    successClearers.forEach((clear) => clear());
    const editsBefore = edits.current;
    try {
      const text = await act();
      if (text && edits.current === editsBefore) setSuccess({ text });
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
    submit: (event?: Event) => {
      event?.preventDefault();
      return run(action);
    },
    /** Another action of the same form (a second button), with the same busy state and messages. */
    run,
    edited: () => {
      edits.current++;
      setSuccess(null);
    },
    // Translated while rendering, so a message follows a language switch.
    success: success?.text() ?? null,
    fieldError: (field: string) => (error?.field === field ? errorText(error.failure) : null),
    formError: error && error.field === null ? errorText(error.failure) : null,
  };
}
