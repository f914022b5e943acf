import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, type Me, onUnauthenticated } from './api.js';
import { announce } from './components/Toast.js';
import { errorText } from './errors.js';
import { type Locale, preferredLocale } from '../common/locales.js';
import { setUiLocale, t } from './i18n/index.js';
import { idbDelete, idbForgetUser, idbGet, idbPut } from './offline/idb.js';
import { href } from './router.js';

/** `failed`: /api/me did not answer with a user or a 401 (no connection, or a server error). */
export type Session =
  | { state: 'loading' }
  | { state: 'failed'; error: unknown }
  // `gone`: the account was deleted (on another device), and this device forgot its data (decision 0198).
  | { state: 'out'; gone?: boolean }
  | { state: 'in'; me: Me };

/** The language for texts, numbers and dates, and for the document (screen readers pick their voice by it). */
function applyDocumentLocale(next: Locale): Locale {
  setUiLocale(next);
  document.documentElement.lang = next;
  return next;
}

/**
 * Who is logged in and in which language the app speaks: loaded from `GET /api/me` at start, the user's language
 * once known (the browser's before), back to the login whenever any request finds the session gone.
 */
export function useSession() {
  const [locale, setLocale] = useState<Locale>(() =>
    applyDocumentLocale(preferredLocale(navigator.languages ?? [navigator.language])),
  );
  const [session, setSession] = useState<Session>({ state: 'loading' });

  const applyLocale = useCallback((next: Locale) => setLocale(applyDocumentLocale(next)), []);

  /** Set once /api/me has answered or failed: from then on the start's guess from the local copy is out of date. */
  const meSettled = useRef(false);

  /**
   * Opens with the user this device last knew (kept for an offline start, decision 0095) and their language, if
   * there is one and `stillWanted()` after reading it; answers whether it did.
   */
  const openAsKnownUser = useCallback(
    async (stillWanted: () => boolean = () => true) => {
      const known = await idbGet<Me>('copy', 'me').catch(() => undefined);
      if (!known || !stillWanted()) return false;
      applyLocale(known.locale);
      setSession({ state: 'in', me: known });
      return true;
    },
    [applyLocale],
  );

  const loadMe = useCallback(async () => {
    try {
      const me = await api.me();
      meSettled.current = true;
      if (me) {
        applyLocale(me.locale);
        setSession({ state: 'in', me });
        // Kept for an offline start (decision 0095).
        void idbPut('copy', me, 'me').catch(() => undefined);
      } else {
        // /api/me says only "not logged in" (the spec's `{ ok: false }`). A device that knew a user asks a route that
        // says why, once (`me` goes below): an account deleted elsewhere leaves nothing here (decision 0198).
        const known = await idbGet<Me>('copy', 'me').catch(() => undefined);
        const gone = known !== undefined && (await accountDeletedElsewhere());
        if (gone) await idbForgetUser(known.id).catch(() => undefined);
        setSession({ state: 'out', gone });
        void idbDelete('copy', ['me']).catch(() => undefined);
      }
    } catch (error) {
      meSettled.current = true;
      // Offline (or the server down) after an earlier visit: open with the last known user and their local copy;
      // the goal store asks the server again when the network is back.
      const unreachable = error instanceof ApiError && (error.code === 'network' || error.status >= 500);
      if (!unreachable || !(await openAsKnownUser())) setSession({ state: 'failed', error });
    }
  }, [applyLocale, openAsKnownUser]);

  // A session that ended elsewhere (logout on another device, password change) leads back to the login, whichever
  // request finds out.
  const sessionNow = useRef(session);
  sessionNow.current = session;
  useEffect(
    () =>
      onUnauthenticated((code) => {
        // Before /api/me has answered, the user shown is the start's guess, and /api/me's own answer decides (the
        // address stays, so a link opened with an ended session leads there after the login).
        const leaving = sessionNow.current;
        if (leaving.state !== 'in' || !meSettled.current) return;
        const gone = code === 'account_deleted';
        // Nothing of a deleted account can be sent any more: its outbox goes with its copy (decision 0198).
        if (gone) void idbForgetUser(leaving.me.id).catch(() => undefined);
        setSession({ state: 'out', gone });
        window.location.hash = href.login;
      }),
    [],
  );

  useEffect(() => {
    void loadMe();
    // A device that knows its last user opens with them and their local copy at once, without waiting a round trip
    // for /api/me, which is asked meanwhile and confirms them, brings their changes or ends the session (decision
    // 0148).
    void openAsKnownUser(() => !meSettled.current);
  }, [loadMe, openAsKnownUser]);

  const setMe = useCallback((me: Me) => setSession({ state: 'in', me }), []);

  /** Switches at once; a logged-in user's choice is saved (a failure is announced, the switch stays). */
  const changeLocale = useCallback(
    async (next: Locale) => {
      applyLocale(next);
      if (session.state !== 'in') return;
      try {
        await api.setLocale(next);
        setSession({ state: 'in', me: { ...session.me, locale: next } });
      } catch (failure) {
        // Not saved: kept, it would last only until the next start. Back to the saved one, and say why.
        applyLocale(session.me.locale);
        announce(errorText(failure));
      }
    },
    [session, applyLocale],
  );

  /**
   * Ends the session on the server, then here. The session is an HttpOnly cookie only the server can end: when it
   * cannot be reached, nothing changes and the failure is said, because a logout shown here would last only until
   * the next start (decision 0150).
   */
  const logout = useCallback(async () => {
    // Read first: a 401 below shows the login at once.
    const leaving = sessionNow.current;
    try {
      await api.logout();
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.code === 'unauthenticated')) {
        announce(t('logout.failed', { reason: errorText(failure) }));
        return;
      }
    }
    // Nothing of the user stays in this browser: the goal copy and their outbox go too (decisions 0095, 0176).
    if (leaving.state === 'in') await idbForgetUser(leaving.me.id).catch(() => undefined);
    setSession({ state: 'out' });
    window.location.hash = href.login;
  }, []);

  return { session, locale, applyLocale, loadMe, setMe, changeLocale, logout };
}

/** Whether a route that needs the session answers that its account was deleted (decision 0198). */
function accountDeletedElsewhere(): Promise<boolean> {
  return api.goals().then(
    () => false,
    (failure: unknown) => failure instanceof ApiError && failure.code === 'account_deleted',
  );
}
