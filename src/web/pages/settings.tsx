import { useRef, useState } from 'preact/hooks';
import { Confirm } from '../components/Confirm.js';
import { IMPORT_BODY_LIMIT_BYTES } from '../../common/contract/export-identity.js';
import { LIMITS } from '../../common/limits.js';
import { api, ApiError, EXPORT_LINKS } from '../api.js';
import { useRetryKey } from '../retry-key.js';
import { Field, NewPasswordField, FormMessage } from '../components/Field.js';
import { FieldProblem } from '../errors.js';
import { LanguagePicker } from '../components/LanguagePicker.js';
import { Page } from '../components/Page.js';
import { TimeZoneSetting } from '../components/TimeZoneSetting.js';
import { useApp } from '../context.js';
import {
  fileText,
  type ImportPlace,
  importPlace,
  importPlaceText,
  isNewerExport,
  isSteadyExport,
  unreadableFileCode,
} from '../import-place.js';
import { checkLength } from '../errors.js';
import { addTexts, t, tp } from '../i18n/index.js';
import { SETTINGS_TEXTS } from '../i18n/settings/index.js';
import { useLostTry } from '../lost-try.js';
import { useSubmit } from '../use-submit.js';

addTexts(SETTINGS_TEXTS);

export function SettingsPage() {
  const app = useApp();
  return (
    <Page title={t('settings.title')}>
      <p class="muted">{t('settings.account', { email: app.me.email })}</p>
      <NameForm />
      <section class="card stack">
        <LanguagePicker id="settings-language" hint={t('settings.languageHint')} />
      </section>
      <TimeZoneSetting />
      <PasswordForm />
      <LogoutOthersForm />
      <DataSection />
      <DeleteAccount />
    </Page>
  );
}

function NameForm() {
  const app = useApp();
  const [name, setName] = useState(app.me.name);
  const form = useSubmit(['name'], async () => {
    checkLength('name', name, LIMITS.displayNameMax, 'name_too_long');
    const answer = await api.setName(name);
    app.setMe({ ...app.me, name: answer.name });
    setName(answer.name);
    return () => t('app.saved');
  });
  return (
    <form class="card stack" onSubmit={form.submit} onInput={form.edited} noValidate aria-labelledby="profile-title">
      <h2 id="profile-title">{t('settings.profile')}</h2>
      <FormMessage error={form.formError} success={form.success} />
      <Field
        id="name"
        label={t('settings.name')}
        autoComplete="nickname"
        required
        limit={LIMITS.displayNameMax}
        value={name}
        onValue={setName}
        error={form.fieldError('name')}
      />
      <button type="submit" class="primary" disabled={form.busy}>
        {t('settings.saveName')}
      </button>
    </form>
  );
}

function PasswordForm() {
  const { me } = useApp();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const lostTry = useLostTry();
  const form = useSubmit(['old_password', 'new_password'], async () => {
    checkLength('new_password', newPassword, LIMITS.passwordMax, 'password_too_long');
    if (!(lostTry.last && (await changedByTheLostTry(me.email, newPassword)))) {
      try {
        await api.changePassword(oldPassword, newPassword);
      } catch (failure) {
        lostTry.failed(failure, []);
        throw failure;
      }
    }
    lostTry.succeeded();
    setOldPassword('');
    setNewPassword('');
    return () => t('settings.passwordSaved');
  });
  return (
    <form class="card stack" onSubmit={form.submit} onInput={form.edited} noValidate aria-labelledby="password-title">
      <h2 id="password-title">{t('settings.password')}</h2>
      <FormMessage error={form.formError} success={form.success} />
      <Field
        id="old_password"
        label={t('settings.oldPassword')}
        type="password"
        autoComplete="current-password"
        required
        value={oldPassword}
        onValue={setOldPassword}
        error={form.fieldError('old_password')}
      />
      <NewPasswordField
        id="new_password"
        label={t('settings.newPassword')}
        value={newPassword}
        onValue={setNewPassword}
        error={form.fieldError('new_password')}
      />
      <button type="submit" class="primary" disabled={form.busy}>
        {t('settings.savePassword')}
      </button>
    </form>
  );
}

/**
 * After a try whose answer was lost: whether that try changed the password (decision 0140). A change ends every
 * session, this one too, and the fresh session's cookie came in the lost answer, so sending the change again would
 * meet a 401 and log the person out. The new password logging in says the change went through, and gives this
 * browser its session back; a refusal means it did not, and the change is sent as usual.
 */
function changedByTheLostTry(email: string, newPassword: string): Promise<boolean> {
  return api.login(email, newPassword).then(
    () => true,
    () => false,
  );
}

/** Ends every other session and remember-me login of the account; this browser stays logged in. */
function LogoutOthersForm() {
  const form = useSubmit([], async () => {
    await api.logoutOthers();
    return () => t('settings.logoutOthersDone');
  });
  return (
    <form class="card stack" onSubmit={form.submit} noValidate aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('settings.sessions')}</h2>
      <p class="muted">{t('settings.sessionsHint')}</p>
      <FormMessage error={form.formError} success={form.success} />
      <button type="submit" disabled={form.busy}>
        {t('settings.logoutOthers')}
      </button>
    </form>
  );
}

function ExportLinks() {
  return (
    <div class="inline">
      <a class="button" href={EXPORT_LINKS.json} download>
        {t('settings.exportJson')}
      </a>
      <a class="button" href={EXPORT_LINKS.csv} download>
        {t('settings.exportCsv')}
      </a>
    </div>
  );
}

function DataSection() {
  return (
    <section class="card stack" aria-labelledby="data-title">
      <h2 id="data-title">{t('settings.data')}</h2>
      <p>{t('settings.dataIntro')}</p>
      <ExportLinks />
      <ImportForm />
    </section>
  );
}

const IMPORT_FILE = 'import-file';

/**
 * Brings an export back (POST /api/import, docs/api-data.md): the goals follow the user's own, with their order,
 * archive and reminders. A refused document names the path of its first bad value, so it can be found in a big file.
 * What the app can tell without the server (too large, no JSON, no export, a newer version) it says unsent.
 */
/** The refusals of an import whose `field` is a place in the document (decision 0193). */
const IMPORT_REFUSALS_WITH_A_PLACE = new Set<string>(['invalid_import', 'goal_too_large']);

function ImportForm() {
  const app = useApp();
  const fileInput = useRef<HTMLInputElement>(null);
  const [badValueAt, setBadValueAt] = useState<ImportPlace | null>(null);
  // The key of the file's import until it succeeds: a retry after a lost answer, even with the file chosen again,
  // is answered by the first import instead of adding the goals twice (decision 0127).
  const importKey = useRetryKey();
  const form = useSubmit([IMPORT_FILE], async () => {
    setBadValueAt(null);
    const file = fileInput.current?.files?.[0];
    if (!file) throw new FieldProblem(IMPORT_FILE, 'missing_field');
    // Refused unread: the server would take the whole upload before refusing it (decision 0179).
    if (file.size > IMPORT_BODY_LIMIT_BYTES) throw new FieldProblem(IMPORT_FILE, 'body_too_large');
    const text = fileText(new Uint8Array(await file.arrayBuffer()));
    if (text === null) throw new FieldProblem(IMPORT_FILE, 'invalid_json', 'settings.importNotUtf8');
    // Not "no Steady export": an empty file (a download that never started, a file saved empty) says so.
    if (text.trim() === '') throw new FieldProblem(IMPORT_FILE, 'invalid_import', 'settings.importEmpty');
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw new FieldProblem(IMPORT_FILE, unreadableFileCode(text));
    }
    if (!isSteadyExport(document)) throw new FieldProblem(IMPORT_FILE, 'invalid_import');
    if (isNewerExport(document)) throw new FieldProblem(IMPORT_FILE, 'invalid_import', 'settings.importNewer');
    let imported: number;
    try {
      const answer = await api.importGoals(
        document,
        importKey.keyFor(`${file.name}/${file.size}/${file.lastModified}`),
      );
      importKey.done();
      imported = answer.goals;
    } catch (failure) {
      // Sent larger than the file (JSON written anew can grow): the same words as for a file too large. A proxy's own
      // 413 (no `max_bytes`) has another limit, which the app cannot name: its general text.
      if (failure instanceof ApiError && failure.code === 'body_too_large' && failure.maxBytes !== null) {
        throw new FieldProblem(IMPORT_FILE, 'body_too_large');
      }
      if (failure instanceof ApiError && IMPORT_REFUSALS_WITH_A_PLACE.has(failure.code) && failure.field) {
        setBadValueAt(importPlace(failure.field, document, failure.key));
        // Not the logging's "too many entries to store more": nothing of this goal is stored yet.
        if (failure.code === 'goal_too_large')
          throw new FieldProblem(failure.field, failure.code, 'settings.importTooLarge');
      }
      throw failure;
    }
    if (fileInput.current) fileInput.current.value = '';
    await app.reloadGoals();
    return () => tp('settings.imported', imported);
  });
  const fileError = form.fieldError(IMPORT_FILE);
  return (
    <form class="stack" onSubmit={form.submit} onInput={form.edited} noValidate aria-labelledby="import-title">
      <h3 id="import-title">{t('settings.import')}</h3>
      <p class="muted">{t('settings.importIntro')}</p>
      <FormMessage error={form.formError} success={form.success} />
      {form.formError && badValueAt && <p class="muted">{importPlaceText(badValueAt)}</p>}
      <div class="field">
        <label for={IMPORT_FILE}>{t('settings.importFile')}</label>
        <input
          ref={fileInput}
          id={IMPORT_FILE}
          name={IMPORT_FILE}
          type="file"
          accept=".json,application/json"
          aria-invalid={fileError ? 'true' : undefined}
          aria-describedby={fileError ? `${IMPORT_FILE}-error` : undefined}
        />
        {fileError && (
          <p class="field-error" id={`${IMPORT_FILE}-error`}>
            {fileError}
          </p>
        )}
      </div>
      <button type="submit" disabled={form.busy}>
        {t('settings.import')}
      </button>
    </form>
  );
}

/** Password first, then a plain question with the address; the export is offered before either. */
function DeleteAccount() {
  const app = useApp();
  const [password, setPassword] = useState('');
  const [confirming, setConfirming] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const rename = { password: 'delete_password', old_password: 'delete_password' };
  const ask = useSubmit(
    ['delete_password'],
    async () => {
      if (password === '') throw new FieldProblem('delete_password', 'missing_field');
      setConfirming(true);
    },
    rename,
  );
  const lostTry = useLostTry();
  const removal = useSubmit(
    ['delete_password'],
    async () => {
      try {
        await api.deleteAccount(password);
      } catch (failure) {
        // A deletion whose answer was lost ended this session with the account, so the retry finds no session: it
        // was deleted, and this device's copy of it goes as after any deletion.
        if (!lostTry.failed(failure, ['unauthenticated'])) {
          setConfirming(false);
          throw failure;
        }
      }
      app.announce(t('settings.deleted'));
      // Its entries can never be sent now: nothing waits for them.
      await app.forgetDevice();
    },
    rename,
  );

  function cancel() {
    setConfirming(false);
    requestAnimationFrame(() => deleteButton.current?.focus());
  }

  return (
    <form class="card stack" onSubmit={ask.submit} noValidate aria-labelledby="delete-title">
      <h2 id="delete-title">{t('settings.delete')}</h2>
      <p>{t('settings.deleteWarning')}</p>
      <p>{t('settings.deleteExportFirst')}</p>
      <ExportLinks />
      <FormMessage error={ask.formError ?? removal.formError} />
      <Field
        id="delete_password"
        label={t('settings.deletePassword')}
        type="password"
        autoComplete="current-password"
        required
        limit={LIMITS.passwordMax}
        value={password}
        onValue={setPassword}
        error={ask.fieldError('delete_password') ?? removal.fieldError('delete_password')}
      />
      <button
        ref={deleteButton}
        type="submit"
        class="danger"
        disabled={confirming || ask.busy}
        aria-expanded={confirming}
      >
        {t('settings.delete')}
      </button>
      {confirming && (
        <Confirm
          id="delete-confirm-text"
          question={t('settings.deleteConfirm', { email: app.me.email })}
          yesLabel={t('settings.deleteYes')}
          busy={removal.busy}
          onYes={() => void removal.submit()}
          onCancel={cancel}
        />
      )}
    </form>
  );
}
