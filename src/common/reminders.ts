/** Reminder settings shared by the server and the web app (issue 11). */
export const REMINDER_CHANNELS = ['push', 'email'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

export function isReminderChannel(value: unknown): value is ReminderChannel {
  return typeof value === 'string' && (REMINDER_CHANNELS as readonly string[]).includes(value);
}

/** `HH:MM`, 00:00 to 23:59, as a JSON Schema pattern (the export format's) and as the check below. */
export const REMINDER_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
const REMINDER_TIME = new RegExp(REMINDER_TIME_PATTERN);

export function isReminderTime(value: unknown): value is string {
  return typeof value === 'string' && REMINDER_TIME.test(value);
}

/** Why a reminder's field is refused, after the field's name (the reminder API and the import say the same). */
export const REMINDER_REFUSALS = { time: 'must be HH:MM, 00:00 to 23:59', channel: 'must be push or email' } as const;

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
