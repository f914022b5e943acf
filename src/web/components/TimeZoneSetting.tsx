import { useEffect, useMemo, useState } from 'preact/hooks';
import { sameTimeZone } from '../../common/reminders.js';
import { api } from '../api.js';
import { t } from '../i18n/index.js';
import { useLoad } from '../use-load.js';
import { useSubmit } from '../use-submit.js';
import { FormMessage, Loaded } from './Field.js';

/** The time zone this browser runs in (an IANA name), or null when the browser does not say. */
export function deviceTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * Sets the user's time zone from the browser when none is set yet (once per login; reminders need it). A zone
 * the server does not know is left unset; the Settings page shows that and offers the device's zone again.
 */
export function useDeviceTimeZone(userId: number | null): void {
  useEffect(() => {
    const device = deviceTimeZone();
    if (userId === null || !device) return;
    void api
      .preferences()
      .then(({ timezone }) => (timezone === null ? api.setTimezone(device) : undefined))
      .catch(() => undefined);
  }, [userId]);
}

/**
 * Settings: the time zone reminders use, and a button to switch to this device's. The saved zone is shown once it
 * is known: offline, "not set" and the offer to set it would pass for what the account has.
 */
export function TimeZoneSetting() {
  const saved = useLoad(api.preferences);
  return (
    <section class="card stack" aria-labelledby="timezone-title">
      <h2 id="timezone-title">{t('settings.timezone')}</h2>
      <p class="hint">{t('settings.timezoneHint')}</p>
      <Loaded load={saved}>{(preferences) => <TimeZoneForm saved={preferences.timezone} />}</Loaded>
    </section>
  );
}

function TimeZoneForm({ saved }: { saved: string | null }) {
  const [zone, setZone] = useState(saved);
  const device = deviceTimeZone();
  // The device's zone, when it is not the saved one. The server may spell a zone otherwise than this browser
  // (Asia/Calcutta for Asia/Kolkata): one zone, nothing to offer (decision 0221).
  const offered = useMemo(
    () => (device !== null && (zone === null || !sameTimeZone(device, zone)) ? device : null),
    [device, zone],
  );
  const form = useSubmit([], async () => {
    setZone((await api.setTimezone(offered!)).timezone);
    return () => t('settings.timezoneSaved');
  });
  return (
    <form class="stack" onSubmit={form.submit} noValidate aria-labelledby="timezone-title">
      <FormMessage error={form.formError} success={form.success} />
      <p id="timezone-current">{t('settings.timezoneCurrent', { zone: zone ?? t('settings.timezoneNone') })}</p>
      {offered && (
        <button type="submit" disabled={form.busy}>
          {t('settings.timezoneUseDevice', { zone: offered })}
        </button>
      )}
    </form>
  );
}
