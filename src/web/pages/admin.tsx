import { api } from '../api.js';
import { LoadFailed } from '../components/Field.js';
import { Page } from '../components/Page.js';
import { errorText } from '../errors.js';
import { formatMoment, t, tp } from '../i18n/index.js';
import { useLoad } from '../use-load.js';

/** Every account, for the administrator (the server answers 403 to anyone else). */
export function AdminPage() {
  const { data: users, error, reload } = useLoad(api.adminUsers);
  return (
    <Page title={t('admin.title')}>
      {error !== null && <LoadFailed error={errorText(error)} onRetry={() => void reload()} />}
      {!users && error === null && <p class="muted">{t('app.loading')}</p>}
      {users && (
        <section class="card stack">
          <p class="muted">{tp('admin.count', users.length)}</p>
          <table class="users">
            <thead>
              <tr>
                <th scope="col">{t('admin.email')}</th>
                <th scope="col">{t('admin.name')}</th>
                <th scope="col">{t('admin.registered')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <td data-label={t('admin.email')}>
                    <bdi>{user.email}</bdi>
                  </td>
                  <td data-label={t('admin.name')}>
                    {user.username ? <bdi>{user.username}</bdi> : <span class="muted">{t('admin.noName')}</span>}
                  </td>
                  <td data-label={t('admin.registered')}>{formatMoment(user.registered)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </Page>
  );
}
