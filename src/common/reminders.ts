import { wallClockFormat } from './wall-clock-format.js';

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

/** Mondays at noon UTC, a week apart, from 1970 to 2037: what `sameTimeZone` compares two zones' clocks at. */
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const COMPARED_FROM = Date.UTC(1970, 0, 5, 12);
const COMPARED_UNTIL = Date.UTC(2038, 0, 1);

/**
 * Whether two IANA names are one zone: a name and its alias (`Asia/Kolkata` and `Asia/Calcutta`, `Europe/Kyiv` and
 * `Europe/Kiev`). The server stores a zone as its own Intl spells it, and a browser may spell the same zone otherwise
 * (decision 0221). Two names this runtime canonicalizes alike are one zone; a runtime that keeps each name as given
 * (as ECMA-402 now asks) is answered by the clocks: IANA makes a name an alias of another when their clocks have
 * agreed since 1970, so two names whose local time agrees at every weekly instant from 1970 to 2037 are taken as
 * one. `canonical` is `canonicalTimeZone`, replaceable to test that second way.
 */
export function sameTimeZone(
  a: string,
  b: string,
  canonical: (name: string) => string | null = canonicalTimeZone,
): boolean {
  if (a === b) return true;
  const canonicalA = canonical(a);
  const canonicalB = canonical(b);
  if (canonicalA === null || canonicalB === null) return false;
  if (canonicalA === canonicalB) return true;
  const [clockA, clockB] = [wallClockFormat(canonicalA), wallClockFormat(canonicalB)];
  for (let instant = COMPARED_FROM; instant < COMPARED_UNTIL; instant += WEEK_MS) {
    if (clockA.format(instant) !== clockB.format(instant)) return false;
  }
  return true;
}
