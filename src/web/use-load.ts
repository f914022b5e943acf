import { useCallback, useEffect, useState } from 'preact/hooks';

/**
 * Data a page loads when it opens: null until it arrives, the failure (translated where it is shown) if it does
 * not, and `reload` for after a change.
 */
export function useLoad<T>(load: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    setError(null);
    try {
      setData(await load());
    } catch (failure) {
      setError(failure);
    }
  }, []);
  useEffect(() => void reload(), []);
  return { data, error, reload };
}
