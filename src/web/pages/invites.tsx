import { useRef, useState } from 'preact/hooks';
import { LIMITS } from '../../common/limits.js';
import { api, ApiError, type Invite } from '../api.js';
import { Field, FormMessage, LiveStatus, LoadFailed } from '../components/Field.js';
import { Page } from '../components/Page.js';
import { useApp } from '../context.js';
import { checkLength, errorText } from '../errors.js';
import { formatMoment, t, tp } from '../i18n/index.js';
import type { TextKey } from '../i18n/types.js';
import { inviteDetail } from '../invite-detail.js';
import { useLoad } from '../use-load.js';
import { useRetryKey } from '../retry-key.js';
import { useLostTry } from '../lost-try.js';
import { useSubmit } from '../use-submit.js';

export function InvitesPage() {
  const [note, setNote] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const { data: invites, error: loadError, reload } = useLoad(api.invites);

  // The same key while the same note is sent again after a failure: a lost answer makes no second invite.
  const retryKey = useRetryKey();
  const form = useSubmit(['note'], async () => {
    checkLength('note', note, LIMITS.inviteNoteMax, 'note_too_long');
    const { url } = await api.createInvite(note.trim(), retryKey.keyFor(note.trim()));
    retryKey.done();
    setCreated(url);
    setNote('');
    await reload();
  });

  return (
    <Page title={t('invites.title')}>
      <form class="card stack" onSubmit={form.submit} noValidate>
        <p>{t('invites.intro')}</p>
        <FormMessage error={form.formError} />
        <Field
          id="note"
          label={t('invites.note')}
          hint={t('invites.noteHint')}
          limit={LIMITS.inviteNoteMax}
          value={note}
          onValue={setNote}
          error={form.fieldError('note')}
        />
        <button class="primary" type="submit" disabled={form.busy}>
          {t('invites.create')}
        </button>
      </form>
      {created && <NewLink url={created} />}
      <section class="card stack" aria-labelledby="invite-list-title">
        <h2 id="invite-list-title" tabIndex={-1}>
          {t('invites.list')}
        </h2>
        {loadError !== null && <LoadFailed error={errorText(loadError)} onRetry={() => void reload()} />}
        {!invites && loadError === null && <p class="muted">{t('app.loading')}</p>}
        {invites && invites.length === 0 && <p class="muted">{t('invites.empty')}</p>}
        {invites && invites.length > 0 && (
          <>
            <p class="muted">{tp('invites.count', invites.length)}</p>
            <ul class="invite-list">
              {invites.map((invite, index) => (
                <InviteRow key={`${invite.created_at}-${index}`} invite={invite} onRevoked={reload} />
              ))}
            </ul>
          </>
        )}
      </section>
    </Page>
  );
}

/** The fresh link with copy (clipboard, else the text is selected for the user) and share (when the device can). */
function NewLink({ url }: { url: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<TextKey | null>(null);
  const canShare = typeof navigator.share === 'function';

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setMessage('invites.copied');
    } catch {
      input.current?.focus();
      input.current?.select();
      setMessage('invites.copyFailed');
    }
  }

  async function share() {
    try {
      await navigator.share({ title: t('app.name'), text: t('invites.shareText'), url });
    } catch {
      // The user closed the share sheet; nothing to report.
    }
  }

  return (
    <section class="card stack new-link">
      <label for="new-link">{t('invites.link')}</label>
      <input
        ref={input}
        id="new-link"
        class="link-text"
        readOnly
        value={url}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div class="inline">
        <button type="button" class="primary" onClick={() => void copy()}>
          {t('invites.copy')}
        </button>
        {canShare && (
          <button type="button" onClick={() => void share()}>
            {t('invites.share')}
          </button>
        )}
      </div>
      <LiveStatus text={message && t(message)} />
    </section>
  );
}

/**
 * Where the focus goes once the Revoke button it was on is gone: the next pending invite's Revoke button, else the
 * list's heading. Left to the browser, it falls to the page's start (decision 0195).
 */
function focusAfterRevoke(row: HTMLLIElement | null) {
  let next = row?.nextElementSibling;
  while (next && !next.querySelector('button')) next = next.nextElementSibling;
  (next?.querySelector('button') ?? document.getElementById('invite-list-title'))?.focus();
}

function InviteRow({ invite, onRevoked }: { invite: Invite; onRevoked: () => Promise<void> }) {
  const app = useApp();
  const row = useRef<HTMLLIElement>(null);
  const lostTry = useLostTry();
  const revoke = useSubmit([], async () => {
    try {
      await api.revokeInvite(invite.url!);
    } catch (failure) {
      // No longer pending right after a try whose answer was lost: that try revoked it.
      if (!lostTry.failed(failure, ['invite_not_found'])) {
        // Used meanwhile: the list shows it so, beside the refusal.
        if (failure instanceof ApiError && failure.code === 'invite_not_found') await onRevoked();
        throw failure;
      }
    }
    app.announce(t('invites.revoked'));
    await onRevoked();
    requestAnimationFrame(() => focusAfterRevoke(row.current));
  });
  return (
    <li ref={row} class={`invite invite-${invite.status}`}>
      <div class="invite-head">
        <span class={`badge badge-${invite.status}`}>{t(`invites.status.${invite.status}`)}</span>
        <span>{invite.note === null ? t('invites.noNote') : <bdi>{invite.note}</bdi>}</span>
      </div>
      <p class="muted">
        {t('invites.createdOn', { date: formatMoment(invite.created_at) })} · {inviteDetail(invite)}
      </p>
      {invite.url && <p class="link-text small-print">{invite.url}</p>}
      {invite.status === 'pending' && invite.url && (
        <button
          type="button"
          class="danger"
          disabled={revoke.busy}
          onClick={() => void revoke.submit()}
          aria-label={`${t('invites.revoke')}: ${invite.note ?? t('invites.noNote')}`}
        >
          {t('invites.revoke')}
        </button>
      )}
      {revoke.formError && <FormMessage error={revoke.formError} />}
    </li>
  );
}
