import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/**
 * Data a page loads when it opens: null until it arrives, the failure (translated where it is shown) if it does
 * not, and `reload` for after a change. `load` is read at each (re)load, so a new function per render does not
 * load again by itself.
 */
export interface Load<T> {
  data: T | null;
  error: unknown;
  reload: () => Promise<void>;
}

export function useLoad<T>(load: () => Promise<T>): Load<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const reload = useCallback(async () => {
    setError(null);
    try {
      setData(await latestLoad.current());
    } catch (failure) {
      setError(failure);
    }
  }, []);
  useEffect(() => void reload(), [reload]);
  return { data, error, reload };
}
