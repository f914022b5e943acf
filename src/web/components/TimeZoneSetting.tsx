import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { t } from '../i18n/index.js';
import { useSubmit } from '../use-submit.js';
import { FormMessage } from './Field.js';

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

/** Settings: the time zone reminders use, and a button to switch to this device's. */
export function TimeZoneSetting() {
  const [zone, setZone] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const device = deviceTimeZone();
  useEffect(() => {
    let live = true;
    void api
      .preferences()
      .then((preferences) => live && setZone(preferences.timezone))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const form = useSubmit([], async () => {
    setSaved(false);
    setZone((await api.setTimezone(device!)).timezone);
    setSaved(true);
  });
  return (
    <form class="card stack" onSubmit={form.submit} noValidate aria-labelledby="timezone-title">
      <h2 id="timezone-title">{t('settings.timezone')}</h2>
      <p class="hint">{t('settings.timezoneHint')}</p>
      <FormMessage error={form.formError} success={saved ? t('settings.timezoneSaved') : null} />
      <p id="timezone-current">{t('settings.timezoneCurrent', { zone: zone ?? t('settings.timezoneNone') })}</p>
      {device && device !== zone && (
        <button type="submit" disabled={form.busy}>
          {t('settings.timezoneUseDevice', { zone: device })}
        </button>
      )}
    </form>
  );
}
