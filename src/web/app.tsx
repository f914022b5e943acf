import { useCallback, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { ApiError, api } from './api.js';
import { LanguagePicker, LocaleContext } from './components/LanguagePicker.js';
import { useDeviceTimeZone } from './components/TimeZoneSetting.js';
import { announce, Toast } from './components/Toast.js';
import { AppContext, type AppState } from './context.js';
import { errorText } from './errors.js';
import { t, tp } from './i18n/index.js';
import { ForgotPage, LoginPage, RegisterPage, ResetPage } from './pages/auth.js';
import { GoalDetailPage } from './pages/goal-detail.js';
import { GoalsPage } from './pages/goals.js';
import { href, type Route, useRoute } from './router.js';
import { useEntryLink } from './use-entry-link.js';
import { useGoals } from './use-goals.js';
import { lazyComponent } from './lazy.js';
import { type Session, useSession } from './use-session.js';

/** How long a logout waits for the outbox to be sent: longer than one request may take (api.ts, 10 s). */
const LOGOUT_SEND_WAIT_MS = 12_000;

/** The whole app: who is logged in (useSession), their goals (useGoals), the link it was opened with, the page. */
export function App() {
  const { session, locale, applyLocale, loadMe, setMe, changeLocale, logout } = useSession();
  const goals = useGoals(session.state === 'in' ? session.me.id : null);
  useDeviceTimeZone(session.state === 'in' ? session.me.id : null);
  const entry = useEntryLink();
  const route = useRoute();
  useFocusOnNewPage(
    session.state === 'loading' ? null : `${session.state} ${entry.link?.kind ?? ''} ${JSON.stringify(route)}`,
  );

  const { whenSent } = goals;
  // Logging out empties the outbox: first the entries in it are sent, or the logout waits (decision 0150).
  const logoutWhenSent = useCallback(async () => {
    const unsent = await whenSent(LOGOUT_SEND_WAIT_MS);
    // null: the session had ended already (the login shows); the queue waits for the next login.
    if (unsent === null) return;
    if (unsent > 0) announce(tp('logout.unsent', unsent));
    else await logout();
  }, [whenSent, logout]);

  const appState = useMemo<AppState | null>(
    () =>
      session.state === 'in'
        ? { me: session.me, setMe, ...goals, announce, changeLocale, logout: logoutWhenSent, forgetDevice: logout }
        : null,
    [session, setMe, goals, changeLocale, logoutWhenSent, logout],
  );

  async function registered() {
    // The server starts every account in its default language; keep the one the visitor is reading.
    await api.setLocale(locale).catch(() => undefined);
    // The user first, then leave the invite page: the other order shows the login page in between.
    await loadMe();
    entry.leave(href.goals);
  }

  const { link } = entry;
  let content;
  if (session.state === 'loading') content = <p class="muted">{t('app.loading')}</p>;
  else if (session.state === 'failed') content = <Unavailable error={session.error} onRetry={() => void loadMe()} />;
  else if (link?.kind === 'invite')
    content = (
      <RegisterPage
        token={link.token}
        loggedIn={session.state === 'in'}
        onRegistered={registered}
        onLeave={() => entry.leave()}
      />
    );
  else if (link?.kind === 'reset')
    content = (
      <ResetPage selector={link.selector} token={link.token} onDone={entry.resetDone} onLeave={() => entry.leave()} />
    );
  else if (session.state === 'out')
    content =
      route.page === 'forgot' ? (
        <ForgotPage />
      ) : (
        <LoginPage
          notice={entry.notice ? t(entry.notice) : session.gone ? t('error.account_deleted') : null}
          onLoggedIn={async () => {
            entry.clearNotice();
            await loadMe();
          }}
        />
      );
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

/**
 * When the page changes (navigation, login, registration, logout), focus the new page's heading so keyboard and
 * screen-reader users start there. The first page shown after loading keeps the browser's own start.
 *
 * The focus moves in the commit that shows the new page (a layout effect), not a frame later: a key pressed as
 * soon as the page appears, such as a quick Tab to its first field, must not be overtaken by the focus jumping
 * back to the heading. Only a page whose heading is not rendered yet (a page in a chunk of its own, still loading)
 * gets the focus when its heading appears, unless the person moved the focus meanwhile.
 */
function useFocusOnNewPage(view: string | null): void {
  const lastView = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (view === null) return;
    const previous = lastView.current;
    lastView.current = view;
    if (previous === null || previous === view) return;
    window.scrollTo(0, 0);
    const heading = () => document.querySelector<HTMLElement>('main h1');
    const now = heading();
    if (now) return now.focus();
    const main = document.querySelector('main');
    if (!main) return;
    const untouched = document.activeElement;
    const watch = new MutationObserver(() => {
      const shown = heading();
      if (!shown) return;
      watch.disconnect();
      if (document.activeElement === untouched) shown.focus();
    });
    watch.observe(main, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [view]);
}

/** The skip link must not change the hash, which is the app's router. */
function skipToMain(event: Event) {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/**
 * Settings, invites and the administrator's list are visited rarely and need the network for everything they do:
 * chunks of their own (decision 0144). So are the goal form and the arrange page (decision 0175): making, editing,
 * ordering and archiving goals all need the server.
 */
const SettingsPage = lazyComponent(() => import('./pages/settings.js').then((module) => module.SettingsPage));
const InvitesPage = lazyComponent(() => import('./pages/invites.js').then((module) => module.InvitesPage));
const AdminPage = lazyComponent(() => import('./pages/admin.js').then((module) => module.AdminPage));
const ArrangePage = lazyComponent(() => import('./pages/arrange.js').then((module) => module.ArrangePage));
const NewGoalPage = lazyComponent(() => import('./pages/goal-form.js').then((module) => module.NewGoalPage));
const EditGoalPage = lazyComponent(() => import('./pages/goal-form.js').then((module) => module.EditGoalPage));

function LoggedInPage({ route, isAdmin }: { route: Route; isAdmin: boolean }) {
  switch (route.page) {
    case 'new':
      return <NewGoalPage />;
    // Keyed by the goal: another goal's page (a reminder's tap opens one) starts afresh, with none of the last
    // goal's typed values, loaded reminder or form state.
    case 'goal':
      return <GoalDetailPage key={route.id} id={route.id} />;
    case 'edit':
      return <EditGoalPage key={route.id} id={route.id} />;
    case 'arrange':
      return <ArrangePage />;
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
    {
      target: href.goals,
      label: t('nav.goals'),
      active: ['goals', 'goal', 'new', 'edit', 'arrange'].includes(route.page),
    },
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
