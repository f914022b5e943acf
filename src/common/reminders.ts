/** Reminder settings shared by the server and the web app (issue 11). */
export const REMINDER_CHANNELS = ['push', 'email'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

export function isReminderChannel(value: unknown): value is ReminderChannel {
  return typeof value === 'string' && (REMINDER_CHANNELS as readonly string[]).includes(value);
}

/** `HH:MM`, 00:00 to 23:59. */
export function isReminderTime(value: unknown): value is string {
  return typeof value === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}

/**
 * `name` as the IANA time zone this runtime knows, in its canonical spelling (`europe/berlin` -> `Europe/Berlin`),
 * or null. Intl is the judge, in the browser and on the server; offsets such as `+01:00` are not zone names.
 */
export function canonicalTimeZone(name: unknown): string | null {
  if (typeof name !== 'string' || name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) {
    return null;
  }
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
