import { useRef } from 'preact/hooks';
import { ApiError, type ClientErrorCode } from './api.js';

/**
 * Whether a form's last try lost its answer: the server may have done what it asked (decisions 0133, 0140, 0142).
 * A retry of something done once then meets the refusal that success causes (the invite used, the link gone, the
 * session ended with the account), and the form can take that refusal for the success it is.
 */
export function useLostTry() {
  const lost = useRef(false);
  return {
    /** Whether the last try's answer was lost (it may have gone through). */
    get last(): boolean {
      return lost.current;
    },
    /**
     * Records a try's failure; true when it is one of `codes`, the refusals the lost try's success would cause,
     * right after a lost try.
     */
    failed(failure: unknown, codes: readonly ClientErrorCode[]): boolean {
      const afterLost = lost.current;
      lost.current = failure instanceof ApiError && failure.code === 'network';
      return afterLost && failure instanceof ApiError && codes.includes(failure.code);
    },
    /** The try went through. */
    succeeded(): void {
      lost.current = false;
    },
  };
}
