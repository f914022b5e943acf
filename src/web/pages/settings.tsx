import { useState } from 'preact/hooks';
import { LIMITS } from '../../common/limits.js';
import { api } from '../api.js';
import { Field, FormMessage } from '../components/Field.js';
import { LanguagePicker } from '../components/LanguagePicker.js';
import { Page } from '../components/Page.js';
import { useApp } from '../context.js';
import { checkLength, LIMIT_VARS } from '../errors.js';
import { t } from '../i18n/index.js';
import { useSubmit } from '../use-submit.js';

export function SettingsPage() {
  const app = useApp();
  return (
    <Page title={t('settings.title')}>
      <p class="muted">{t('settings.account', { email: app.me.email })}</p>
      <NameForm />
      <section class="card stack">
        <LanguagePicker id="settings-language" hint={t('settings.languageHint')} />
      </section>
      <PasswordForm />
    </Page>
  );
}

function NameForm() {
  const app = useApp();
  const [name, setName] = useState(app.me.name);
  const [saved, setSaved] = useState(false);
  const form = useSubmit(['name'], async () => {
    setSaved(false);
    checkLength('name', name, LIMITS.displayNameMax, 'name_too_long');
    const answer = await api.setName(name);
    app.setMe({ ...app.me, name: answer.name });
    setName(answer.name);
    setSaved(true);
  });
  return (
    <form class="card stack" onSubmit={form.submit} noValidate aria-labelledby="profile-title">
      <h2 id="profile-title">{t('settings.profile')}</h2>
      <FormMessage error={form.formError} success={saved ? t('app.saved') : null} />
      <Field id="name" label={t('settings.name')} autoComplete="nickname" required limit={LIMITS.displayNameMax} value={name} onValue={setName} error={form.fieldError('name')} />
      <button type="submit" class="primary" disabled={form.busy}>
        {t('settings.saveName')}
      </button>
    </form>
  );
}

function PasswordForm() {
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [saved, setSaved] = useState(false);
  const form = useSubmit(
    ['old_password', 'new_password'],
    async () => {
      setSaved(false);
      checkLength('new_password', newPassword, LIMITS.passwordMax, 'password_too_long');
      await api.changePassword(oldPassword, newPassword);
      setOldPassword('');
      setNewPassword('');
      setSaved(true);
    },
  );
  return (
    <form class="card stack" onSubmit={form.submit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">{t('settings.password')}</h2>
      <FormMessage error={form.formError} success={saved ? t('settings.passwordSaved') : null} />
      <Field id="old_password" label={t('settings.oldPassword')} type="password" autoComplete="current-password" required value={oldPassword} onValue={setOldPassword} error={form.fieldError('old_password')} />
      <Field id="new_password" label={t('settings.newPassword')} hint={t('field.passwordHint', LIMIT_VARS)} type="password" autoComplete="new-password" required minLength={LIMITS.passwordMin} limit={LIMITS.passwordMax} value={newPassword} onValue={setNewPassword} error={form.fieldError('new_password')} />
      <button type="submit" class="primary" disabled={form.busy}>
        {t('settings.savePassword')}
      </button>
    </form>
  );
}
