import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, api, type Goal, type Me, onUnauthenticated } from './api.js';
import { LanguagePicker, LocaleContext } from './components/LanguagePicker.js';
import { announce, Toast } from './components/Toast.js';
import { AppContext, type AppState } from './context.js';
import { errorText } from './errors.js';
import { type Locale, preferredLocale, t, setUiLocale } from './i18n/index.js';
import type { TextKey } from './i18n/types.js';
import { AdminPage } from './pages/admin.js';
import { ForgotPage, LoginPage, RegisterPage, ResetPage } from './pages/auth.js';
import { GoalDetailPage } from './pages/goal-detail.js';
import { EditGoalPage, NewGoalPage } from './pages/goal-form.js';
import { GoalsPage } from './pages/goals.js';
import { InvitesPage } from './pages/invites.js';
import { SettingsPage } from './pages/settings.js';
import { clearQuery, href, type Route, useRoute } from './router.js';

/** `failed`: /api/me did not answer with a user or a 401 (no connection, or a server error). */
type Session = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'out' } | { state: 'in'; me: Me };

/** A link the app was opened with: an invite to register with, or a password reset pair. */
type Link = { kind: 'invite'; token: string } | { kind: 'reset'; selector: string; token: string } | null;

function readLink(search: string): Link {
  const query = new URLSearchParams(search);
  const invite = query.get('invite');
  if (invite) return { kind: 'invite', token: invite };
  const selector = query.get('reset_selector');
  const token = query.get('reset_token');
  if (selector && token) return { kind: 'reset', selector, token };
  return null;
}

/** The language for texts, numbers and dates, and for the document (screen readers pick their voice by it). */
function applyDocumentLocale(next: Locale): Locale {
  setUiLocale(next);
  document.documentElement.lang = next;
  return next;
}

export function App() {
  const [locale, setLocale] = useState<Locale>(() => applyDocumentLocale(preferredLocale(navigator.languages ?? [navigator.language])));
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const [link, setLink] = useState<Link>(() => readLink(window.location.search));
  const [notice, setNotice] = useState<TextKey | null>(null);
  const [goals, setGoals] = useState<Goal[] | null>(null);
  const [goalsError, setGoalsError] = useState<unknown>(null);
  const route = useRoute();

  const applyLocale = useCallback((next: Locale) => setLocale(applyDocumentLocale(next)), []);

  const loadMe = useCallback(async () => {
    try {
      const me = await api.me();
      if (me) {
        applyLocale(me.locale);
        setSession({ state: 'in', me });
      } else {
        setSession({ state: 'out' });
      }
    } catch (error) {
      setSession({ state: 'failed', error });
    }
  }, []);

  // A session that ended elsewhere (logout on another device, password change) leads back to the login, whichever
  // request finds out.
  const sessionNow = useRef(session);
  sessionNow.current = session;
  useEffect(
    () =>
      onUnauthenticated(() => {
        if (sessionNow.current.state !== 'in') return;
        setSession({ state: 'out' });
        window.location.hash = href.login;
      }),
    [],
  );

  const reloadGoals = useCallback(async () => {
    setGoalsError(null);
    try {
      setGoals(await api.goals());
    } catch (failure) {
      setGoalsError(failure);
    }
  }, []);

  useEffect(() => void loadMe(), []);
  useEffect(() => {
    if (session.state === 'in') return void reloadGoals();
    setGoals(null);
    setGoalsError(null);
  }, [session.state === 'in' ? session.me.id : null]);

  // When the page changes (navigation, login, registration, logout), focus the new page's heading so keyboard and
  // screen-reader users start there. The first page shown after loading keeps the browser's own start.
  const view = session.state === 'loading' ? null : `${session.state} ${link?.kind ?? ''} ${JSON.stringify(route)}`;
  const lastView = useRef<string | null>(null);
  useEffect(() => {
    if (view === null) return;
    const previous = lastView.current;
    lastView.current = view;
    if (previous === null || previous === view) return;
    window.scrollTo(0, 0);
    requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1')?.focus());
  }, [view]);

  const changeLocale = useCallback(
    async (next: Locale) => {
      applyLocale(next);
      if (session.state === 'in') {
        try {
          await api.setLocale(next);
          setSession({ state: 'in', me: { ...session.me, locale: next } });
        } catch (failure) {
          announce(errorText(failure));
        }
      }
    },
    [session],
  );

  const appState = useMemo<AppState | null>(() => {
    if (session.state !== 'in') return null;
    return {
      me: session.me,
      setMe: (me) => setSession({ state: 'in', me }),
      goals,
      goalsError,
      reloadGoals,
      putGoal: (goal) =>
        setGoals((list) => {
          const current = list ?? [];
          return current.some((item) => item.id === goal.id) ? current.map((item) => (item.id === goal.id ? goal : item)) : [...current, goal];
        }),
      putAmounts: (goalId, date, amounts) =>
        setGoals((list) => (list ?? []).map((item) => (item.id === goalId ? withAmounts(item, date, amounts) : item))),
      dropGoal: (id) => setGoals((list) => (list ?? []).filter((item) => item.id !== id)),
      announce,
      changeLocale,
      logout: async () => {
        try {
          await api.logout();
        } finally {
          setSession({ state: 'out' });
          window.location.hash = href.login;
        }
      },
    };
  }, [session, goals, goalsError, changeLocale]);

  async function registered() {
    // The server starts every account in its default language; keep the one the visitor is reading.
    await api.setLocale(locale).catch(() => undefined);
    // The user first, then leave the invite page: the other order shows the login page in between.
    await loadMe();
    setLink(null);
    clearQuery(href.goals);
  }

  function resetDone() {
    setLink(null);
    clearQuery(href.login);
    setNotice('reset.done');
  }

  let content;
  if (session.state === 'loading') content = <p class="muted">{t('app.loading')}</p>;
  else if (session.state === 'failed') content = <Unavailable error={session.error} onRetry={() => void loadMe()} />;
  else if (link?.kind === 'invite') content = <RegisterPage token={link.token} onRegistered={registered} />;
  else if (link?.kind === 'reset') content = <ResetPage selector={link.selector} token={link.token} onDone={resetDone} onLeave={() => { setLink(null); clearQuery(href.login); }} />;
  else if (session.state === 'out') content = route.page === 'forgot' ? <ForgotPage /> : <LoginPage notice={notice && t(notice)} onLoggedIn={async () => { setNotice(null); await loadMe(); }} />;
  else content = <LoggedInPage route={route} isAdmin={session.me.is_admin} />;

  return (
    <LocaleContext.Provider value={{ locale, change: appState ? changeLocale : applyLocale }}>
      <AppContext.Provider value={appState}>
        <a class="skip" href="#main" onClick={skipToMain}>
          {t('app.skip')}
        </a>
        <Header route={route} session={session} />
        <main id="main" tabIndex={-1} class={session.state === 'in' ? undefined : 'narrow'}>
          {content}
        </main>
        <Toast />
      </AppContext.Provider>
    </LocaleContext.Provider>
  );
}

function withAmounts(goal: Goal, date: string, amounts: number[]): Goal {
  const sets = { ...goal.sets };
  if (amounts.length > 0) sets[date] = amounts;
  else delete sets[date];
  return { ...goal, sets };
}

/** The skip link must not change the hash, which is the app's router. */
function skipToMain(event: Event) {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

function LoggedInPage({ route, isAdmin }: { route: Route; isAdmin: boolean }) {
  switch (route.page) {
    case 'new':
      return <NewGoalPage />;
    case 'goal':
      return <GoalDetailPage id={route.id} />;
    case 'edit':
      return <EditGoalPage id={route.id} />;
    case 'invites':
      return <InvitesPage />;
    case 'settings':
      return <SettingsPage />;
    case 'admin':
      return isAdmin ? <AdminPage /> : <GoalsPage />;
    default:
      return <GoalsPage />;
  }
}

function Header({ route, session }: { route: Route; session: Session }) {
  return (
    <header class="top">
      <div class="top-bar">
        <a class="brand" href={session.state === 'in' ? href.goals : href.login}>
          <img src="/icon.svg" alt="" width="28" height="28" />
          <span>{t('app.name')}</span>
        </a>
        {session.state === 'in' ? <LogoutButton /> : <LanguagePicker id="header-language" />}
      </div>
      {session.state === 'in' && <Nav route={route} isAdmin={session.me.is_admin} />}
    </header>
  );
}

function LogoutButton() {
  return (
    <AppContext.Consumer>
      {(app) =>
        app && (
          <button type="button" class="link-button" onClick={() => void app.logout()}>
            {t('nav.logout')}
          </button>
        )
      }
    </AppContext.Consumer>
  );
}

function Nav({ route, isAdmin }: { route: Route; isAdmin: boolean }) {
  const items: { target: string; label: string; active: boolean }[] = [
    { target: href.goals, label: t('nav.goals'), active: ['goals', 'goal', 'new', 'edit'].includes(route.page) },
    { target: href.invites, label: t('nav.invites'), active: route.page === 'invites' },
    { target: href.settings, label: t('nav.settings'), active: route.page === 'settings' },
  ];
  if (isAdmin) items.push({ target: href.admin, label: t('nav.admin'), active: route.page === 'admin' });
  return (
    <nav aria-label={t('nav.label')}>
      <ul>
        {items.map((item) => (
          <li key={item.target}>
            <a href={item.target} aria-current={item.active ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The app could not ask the server who is logged in: offline when there is no connection, else the error. */
function Unavailable({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const offline = error instanceof ApiError && error.code === 'network';
  return (
    <div class="card stack">
      <h1 tabIndex={-1}>{t('app.name')}</h1>
      <p role="alert">{offline ? t('app.offline') : errorText(error)}</p>
      <button type="button" class="primary" onClick={onRetry}>
        {t('app.retry')}
      </button>
    </div>
  );
}
