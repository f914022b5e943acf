import { useRef } from 'preact/hooks';
import { newRandomId } from './api.js';

/**
 * One `Idempotency-Key` per thing a form sends (decisions 0127, 0130): the same key while the same thing is sent
 * again after a failure, so a retry after a lost answer is recognised by the server, and a new key for anything else.
 */
export function useRetryKey() {
  const pending = useRef<{ of: string; key: string } | null>(null);
  return {
    /** The key for sending `what` (any text that tells one thing sent from another). */
    keyFor(what: string): string {
      if (pending.current?.of !== what) pending.current = { of: what, key: newRandomId() };
      return pending.current.key;
    },
    /** The thing went through: sending it again is meant as a new one. */
    done(): void {
      pending.current = null;
    },
  };
}
