import { useCallback, useLayoutEffect, useState } from 'preact/hooks';

interface FieldsState<T> {
  values: T;
  /** The texts `latest` had when the form last took them in: a field whose text still equals its `base` is untouched. */
  base: T;
  /** Fields whose `latest` text changed while the person's own text was in them (decision 0186). */
  elsewhere: ReadonlySet<keyof T>;
}

/**
 * A form's text values as one piece of state: `values.name`, and `setter('name')` for the input's `onValue`.
 * `latest` is what the form's fields would read if it opened now (an edit form: the goal as this device last heard
 * it). When it changes, a field the person has left as it was takes the new text, and one they changed keeps theirs;
 * `changedElsewhere(key)` then answers the new text while theirs differs from it. `changed` lists the fields whose
 * text differs from `latest`: what a save has to send.
 */
export function useFields<T extends Record<string, string>>(latest: T) {
  const [state, setState] = useState<FieldsState<T>>(() => ({ values: latest, base: latest, elsewhere: new Set() }));
  // Before the browser paints: the person never sees, nor saves, the old text of a field they did not touch.
  useLayoutEffect(() => setState((current) => rebase(current, latest)), [latest]);
  const setter = useCallback(
    (key: keyof T) => (value: string) =>
      setState((current) => ({ ...current, values: { ...current.values, [key]: value } })),
    [],
  );
  const { values, base, elsewhere } = state;
  const keys = Object.keys(values) as (keyof T)[];
  return {
    values,
    setter,
    changed: keys.filter((key) => values[key] !== base[key]),
    changedElsewhere: (key: keyof T): string | undefined =>
      elsewhere.has(key) && values[key] !== base[key] ? base[key] : undefined,
  };
}

function rebase<T extends Record<string, string>>(current: FieldsState<T>, latest: T): FieldsState<T> {
  const moved = (Object.keys(latest) as (keyof T)[]).filter((key) => latest[key] !== current.base[key]);
  if (moved.length === 0) return current;
  const values = { ...current.values };
  const elsewhere = new Set(current.elsewhere);
  for (const key of moved) {
    if (values[key] === current.base[key]) values[key] = latest[key];
    else elsewhere.add(key);
  }
  return { values, base: latest, elsewhere };
}
