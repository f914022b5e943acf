import { useCallback, useState } from 'preact/hooks';

/** A form's text values as one piece of state: `values.name`, and `setter('name')` for the input's `onValue`. */
export function useFields<T extends Record<string, string>>(initial: () => T) {
  const [values, setValues] = useState<T>(initial);
  const setter = useCallback(
    (key: keyof T) => (value: string) => setValues((current) => ({ ...current, [key]: value })),
    [],
  );
  return { values, setter };
}
