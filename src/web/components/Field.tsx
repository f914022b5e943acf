import type { JSX } from 'preact';

type InputProps = Omit<JSX.IntrinsicElements['input'], 'id' | 'value' | 'onInput' | 'label' | 'ref'>;

interface FieldProps extends InputProps {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: string | undefined;
  error?: string | null | undefined;
}

/** A labelled input with its hint and its error message tied to it for assistive technology. */
export function Field({ id, label, value, onValue, hint, error, class: className, ...input }: FieldProps) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${className ? ` ${String(className)}` : ''}`}>
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input
        {...input}
        id={id}
        name={id}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A message about the whole form (errors are announced at once). */
export function FormMessage({ error, success }: { error?: string | null; success?: string | null }) {
  if (error) {
    return (
      <p class="form-error" role="alert">
        {error}
      </p>
    );
  }
  if (success) {
    return (
      <p class="form-success" role="status">
        {success}
      </p>
    );
  }
  return null;
}
