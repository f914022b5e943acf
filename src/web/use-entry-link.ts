import { useCallback, useState } from 'preact/hooks';
import type { TextKey } from './i18n/types.js';
import { clearQuery, href } from './router.js';

/** A link the app was opened with: an invite to register with, or a password reset pair. */
export type EntryLink = { kind: 'invite'; token: string } | { kind: 'reset'; selector: string; token: string } | null;

function readLink(search: string): EntryLink {
  const query = new URLSearchParams(search);
  const invite = query.get('invite');
  if (invite) return { kind: 'invite', token: invite };
  const selector = query.get('reset_selector');
  const token = query.get('reset_token');
  if (selector && token) return { kind: 'reset', selector, token };
  return null;
}

/**
 * The invite or reset link in the address the app was opened with, until it is used or left, and the notice the
 * login page shows afterwards (the reset worked).
 */
export function useEntryLink() {
  const [link, setLink] = useState<EntryLink>(() => readLink(window.location.search));
  const [notice, setNotice] = useState<TextKey | null>(null);

  /** Forgets the link and removes it from the address bar, landing on `hash`. */
  const leave = useCallback((hash: string = href.login) => {
    setLink(null);
    clearQuery(hash);
  }, []);

  /** After a reset: the login page, saying the password changed (`surely`) or most likely changed. */
  const resetDone = useCallback(
    (surely: boolean) => {
      leave(href.login);
      setNotice(surely ? 'reset.done' : 'reset.doneAfterLostTry');
    },
    [leave],
  );

  return { link, notice, clearNotice: () => setNotice(null), leave, resetDone };
}
