/** The pages before login: log in, forgot password, set a new password from the mailed link, register by invite. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { LIMITS } from '../../common/limits.js';
import { api } from '../api.js';
import { EmailField, Field, NewPasswordField, FormMessage } from '../components/Field.js';
import { Page } from '../components/Page.js';
import { checkLength } from '../errors.js';
import { t } from '../i18n/index.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';
import { useLostTry } from '../lost-try.js';
import { useSubmit } from '../use-submit.js';

export function LoginPage({ onLoggedIn, notice }: { onLoggedIn: () => Promise<void>; notice: string | null }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSubmit(['email', 'password'], async () => {
    checkLength('email', email, LIMITS.emailMax, 'invalid_email');
    await api.login(email, password);
    await onLoggedIn();
  });
  return (
    <Page title={t('login.title')}>
      <p class="tagline">{t('app.tagline')}</p>
      <form class="card stack" onSubmit={form.submit} noValidate>
        <FormMessage error={form.formError} success={notice} />
        <EmailField autoComplete="username" value={email} onValue={setEmail} error={form.fieldError('email')} />
        <Field
          id="password"
          label={t('field.password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
          error={form.fieldError('password')}
        />
        <button class="primary" type="submit" disabled={form.busy}>
          {t('login.submit')}
        </button>
        <p>
          <a href={href.forgot}>{t('login.forgot')}</a>
        </p>
      </form>
      <p class="muted">{t('login.inviteOnly')}</p>
    </Page>
  );
}

export function ForgotPage() {
  const [email, setEmail] = useState('');
  const form = useSubmit(['email'], async () => {
    checkLength('email', email, LIMITS.emailMax, 'invalid_email');
    await api.requestReset(email);
    const sentTo = email.trim();
    return () => t('forgot.sent', { email: sentTo });
  });
  return (
    <Page title={t('forgot.title')}>
      <form class="card stack" onSubmit={form.submit} onInput={form.edited} noValidate>
        <p>{t('forgot.intro')}</p>
        <FormMessage error={form.formError} success={form.success} />
        <EmailField value={email} onValue={setEmail} error={form.fieldError('email')} />
        <button class="primary" type="submit" disabled={form.busy}>
          {t('forgot.submit')}
        </button>
        <p>
          <a href={href.login}>{t('forgot.back')}</a>
        </p>
      </form>
    </Page>
  );
}

/** The mailed link's values; `onDone` after a reset, `onLeave` to leave the link for another page. */
interface ResetProps {
  selector: string;
  token: string;
  onDone: (surely: boolean) => void;
  onLeave: () => void;
}

export function ResetPage({ selector, token, onDone, onLeave }: ResetProps) {
  // Asked once when the page opens (decision 0142); until it answers, or if it cannot, the form shows.
  const linkState = useLoad(() => api.checkReset(selector, token)).data?.state;
  if (linkState === 'expired' || linkState === 'invalid')
    return (
      <DeadLink title={t('reset.linkTitle')} refusal={t(`error.reset_${linkState}`)}>
        <p>
          <a href={href.forgot} onClick={onLeave}>
            {t('reset.requestNew')}
          </a>
        </p>
      </DeadLink>
    );
  return <ResetForm selector={selector} token={token} onDone={onDone} onLeave={onLeave} />;
}

function ResetForm({ selector, token, onDone, onLeave }: ResetProps) {
  const [password, setPassword] = useState('');
  const lostTry = useLostTry();
  const form = useSubmit(['password'], async () => {
    checkLength('password', password, LIMITS.passwordMax, 'password_too_long');
    try {
      await api.resetPassword(selector, token, password);
    } catch (failure) {
      // A link works once: refused right after a try whose answer was lost, that try most likely used it. The
      // page knows no e-mail to prove it by logging in, so the login page says "most likely" (decision 0142).
      if (lostTry.failed(failure, ['reset_invalid'])) return onDone(false);
      throw failure;
    }
    onDone(true);
  });
  return (
    <Page title={t('reset.title')}>
      <form class="card stack" onSubmit={form.submit} noValidate>
        <FormMessage error={form.formError} />
        <NewPasswordField
          id="password"
          label={t('reset.password')}
          value={password}
          onValue={setPassword}
          error={form.fieldError('password')}
        />
        <button class="primary" type="submit" disabled={form.busy}>
          {t('reset.submit')}
        </button>
        <p>
          <a href={href.forgot} onClick={onLeave}>
            {t('login.forgot')}
          </a>
        </p>
      </form>
    </Page>
  );
}

/** What a registration retried after a lost answer meets when the first try went through (decision 0133). */
const REGISTERED_BY_THE_LOST_TRY = ['invite_used', 'email_taken'] as const;

export function RegisterPage({
  token,
  loggedIn,
  onRegistered,
  onLeave,
}: {
  token: string;
  /** A session exists: "log in" would be wrong advice, so the way out leads to the goals. */
  loggedIn: boolean;
  onRegistered: () => Promise<void>;
  onLeave: () => void;
}) {
  // Asked once when the page opens (decision 0142); until it answers, or if it cannot, the form shows.
  const linkState = useLoad(() => api.checkInvite(token)).data?.state;
  if (linkState === 'used' || linkState === 'expired' || linkState === 'invalid')
    return (
      <DeadLink title={t('register.unusableTitle')} refusal={t(`error.invite_${linkState}`)}>
        {linkState === 'used' && !loggedIn && <p>{t('register.usedByYou')}</p>}
        <p>
          <a href={loggedIn ? href.goals : href.login} onClick={onLeave}>
            {t(loggedIn ? 'register.toGoals' : 'register.toLogin')}
          </a>
        </p>
      </DeadLink>
    );
  return <RegisterForm token={token} onRegistered={onRegistered} />;
}

/** A link that cannot be used: why, in an alert, and where to go instead. */
function DeadLink({ title, refusal, children }: { title: string; refusal: string; children: ComponentChildren }) {
  return (
    <Page title={title}>
      <div class="card stack">
        <FormMessage error={refusal} />
        {children}
      </div>
    </Page>
  );
}

function RegisterForm({ token, onRegistered }: { token: string; onRegistered: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const lostTry = useLostTry();
  const form = useSubmit(['email', 'password', 'name'], async () => {
    checkLength('email', email, LIMITS.emailMax, 'invalid_email');
    checkLength('password', password, LIMITS.passwordMax, 'password_too_long');
    checkLength('name', name, LIMITS.displayNameMax, 'name_too_long');
    try {
      await api.register({ email, password, token, ...(name.trim() ? { name } : {}) });
    } catch (failure) {
      if (!lostTry.failed(failure, REGISTERED_BY_THE_LOST_TRY)) throw failure;
      // The try whose answer was lost may have made the account: the same e-mail and password then log in to it.
      // Anything else keeps the refusal the person can act on.
      await api.login(email, password).catch(() => {
        throw failure;
      });
    }
    await onRegistered();
  });
  return (
    <Page title={t('register.title')}>
      <form class="card stack" onSubmit={form.submit} noValidate>
        <p>{t('register.intro')}</p>
        <FormMessage error={form.formError} />
        <EmailField value={email} onValue={setEmail} error={form.fieldError('email')} />
        <NewPasswordField
          id="password"
          label={t('field.password')}
          value={password}
          onValue={setPassword}
          error={form.fieldError('password')}
        />
        <Field
          id="name"
          label={t('register.name')}
          autoComplete="nickname"
          value={name}
          onValue={setName}
          error={form.fieldError('name')}
          limit={LIMITS.displayNameMax}
        />
        <button class="primary" type="submit" disabled={form.busy}>
          {t('register.submit')}
        </button>
      </form>
    </Page>
  );
}
