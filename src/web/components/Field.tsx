import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { LIMITS } from '../../common/limits.js';
import { codePointLength } from '../../common/text.js';
import { errorText, LIMIT_VARS } from '../errors.js';
import { t } from '../i18n/index.js';
import type { Load } from '../use-load.js';

// No `maxLength`: the browser would cut a pasted text without a word. A `limit` shows a counter instead, and the
// form refuses an over-long value with a message (decision 0084).
type InputProps = Omit<
  JSX.IntrinsicElements['input'],
  'id' | 'value' | 'onInput' | 'label' | 'ref' | 'class' | 'className' | 'maxLength' | 'maxlength'
>;

interface FieldProps extends InputProps {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: string | undefined;
  error?: string | null | undefined;
  /** The contract's length limit (characters after trimming); a counter appears near it. */
  limit?: number | undefined;
}

/** The counter shows from this share of the limit on, so it does not distract while a value is short. */
const COUNTER_FROM = 0.8;

/** A labelled input with its hint, its length counter and its error message tied to it for assistive technology. */
export function Field({ id, label, value, onValue, hint, error, limit, ...input }: FieldProps) {
  const field = useRef<HTMLInputElement>(null);
  // A field that already has the focus as its error appears (Enter pressed in it) hears of it from nothing else:
  // focusing it again fires no event. Then the error is an alert; otherwise the focus moves to the field, which
  // reads the error as its description, and an alert as well would say it twice (decision 0195). Read while
  // rendering, as the error arrives, because the focus moves to the field right after.
  const alert = useMemo(() => !!error && document.activeElement === field.current, [error]);
  const count = limit === undefined ? 0 : codePointLength(value.trim());
  const counter = limit !== undefined && count >= limit * COUNTER_FROM;
  const over = limit !== undefined && count > limit;
  const described = [hint ? `${id}-hint` : '', counter ? `${id}-counter` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input
        {...input}
        ref={field}
        id={id}
        name={id}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
      {counter && (
        <p class={over ? 'counter over' : 'counter'} id={`${id}-counter`} aria-live={over ? 'polite' : undefined}>
          {t(over ? 'field.counterOver' : 'field.counter', { count, max: limit })}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`} role={alert ? 'alert' : undefined}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A message about the whole form. Errors are alerts, announced as they appear. A success goes into a status region
 * that is always there and gets its text a frame later: screen readers announce changes of a live region they
 * already know, not a region that appears together with its text.
 */
export function FormMessage({ error, success }: { error?: string | null; success?: string | null }) {
  return (
    <>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <LiveStatus text={error ? null : (success ?? null)} />
    </>
  );
}

/**
 * What `useLoad` loads, once it is there; until then a loading note, and on failure the failure with Try again.
 * Never the content's empty state before the content is known: offline, that would pass for what is saved.
 */
export function Loaded<T>({ load, children }: { load: Load<T>; children: (data: T) => ComponentChildren }) {
  if (load.data !== null) return <>{children(load.data)}</>;
  if (load.error !== null) return <LoadFailed error={errorText(load.error)} onRetry={() => void load.reload()} />;
  return <p class="muted">{t('app.loading')}</p>;
}

/** Why something could not be loaded (translated), and a button to try again. */
export function LoadFailed({ error, onRetry }: { error: string; onRetry: () => void }) {
  return (
    <div class="stack">
      <FormMessage error={error} />
      <button type="button" onClick={onRetry}>
        {t('app.retry')}
      </button>
    </div>
  );
}

/** A polite live region whose text arrives after the region itself (see FormMessage). */
export function LiveStatus({ text }: { text: string | null }) {
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setShown(text));
    return () => cancelAnimationFrame(frame);
  }, [text]);
  return (
    <p class="form-success" role="status">
      {shown}
    </p>
  );
}

/** A password being chosen (registration, reset, change): its rules as the hint, the contract's length limits. */
export function NewPasswordField(props: Pick<FieldProps, 'id' | 'label' | 'value' | 'onValue' | 'error'>) {
  return (
    <Field
      {...props}
      hint={t('field.passwordHint', LIMIT_VARS)}
      type="password"
      autoComplete="new-password"
      required
      minLength={LIMITS.passwordMin}
      limit={LIMITS.passwordMax}
    />
  );
}

/**
 * The e-mail address of login, registration and the reset request. `username` on the login form, where password
 * managers look for the account's name; `email` elsewhere.
 */
export function EmailField({
  autoComplete = 'email',
  ...props
}: Pick<FieldProps, 'value' | 'onValue' | 'error'> & { autoComplete?: 'email' | 'username' }) {
  return (
    <Field
      {...props}
      id="email"
      label={t('field.email')}
      type="email"
      autoComplete={autoComplete}
      required
      limit={LIMITS.emailMax}
    />
  );
}
