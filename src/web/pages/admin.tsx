import { useMemo, useState } from 'preact/hooks';
import { api, type AdminUser } from '../api.js';
import { Field, LoadFailed } from '../components/Field.js';
import { Page } from '../components/Page.js';
import { errorText } from '../errors.js';
import { formatMoment, t, tp } from '../i18n/index.js';
import { matchesSearch, searchKey } from '../search-text.js';
import { useLoad } from '../use-load.js';

/** Every account, for the administrator (the server answers 403 to anyone else). */
export function AdminPage() {
  const { data: users, error, reload } = useLoad(api.adminUsers);
  return (
    <Page title={t('admin.title')}>
      {error !== null && <LoadFailed error={errorText(error)} onRetry={() => void reload()} />}
      {!users && error === null && <p class="muted">{t('app.loading')}</p>}
      {users && <UserList users={users} />}
    </Page>
  );
}

/**
 * The list with a search above it (decision 0204): the server answers every account (the spec's shape), and the
 * page shows those whose e-mail or name has every typed word, ignoring case and accents. The count says how many
 * of all are shown, in a polite live region, so a screen reader hears it as the list changes.
 */
function UserList({ users }: { users: AdminUser[] }) {
  const [query, setQuery] = useState('');
  const keyed = useMemo(
    () => users.map((user) => ({ user, key: searchKey(`${user.email} ${user.username ?? ''}`) })),
    [users],
  );
  const shown = query.trim() ? keyed.filter(({ key }) => matchesSearch(key, query.trim())) : keyed;
  return (
    <section class="card stack">
      <div role="search">
        <Field
          id="user-search"
          type="search"
          label={t('admin.search')}
          autoComplete="off"
          spellcheck={false}
          value={query}
          onValue={setQuery}
        />
      </div>
      <p class="muted" id="user-count" role="status">
        {shown.length === users.length
          ? tp('admin.count', users.length)
          : tp('admin.countShown', users.length, { shown: shown.length })}
      </p>
      {shown.length > 0 && (
        <table class="users" aria-describedby="user-count">
          <thead>
            <tr>
              <th scope="col">{t('admin.email')}</th>
              <th scope="col">{t('admin.name')}</th>
              <th scope="col">{t('admin.registered')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map(({ user }) => (
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
      )}
    </section>
  );
}
