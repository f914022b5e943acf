import { formatDateKey, GOAL_LIMITS, isCalendarDate, twoDigits } from '../../common/goal.js';
import { wallClockFormat } from '../../common/wall-clock-format.js';

/**
 * A goal's `start`: what the client sent, read by the rules of docs/decisions/0031-goal-start-parsing.md, and
 * always answered as `YYYY-MM-DD HH:MM:SS`.
 *
 * Accepted: `2026-01-15`, then optionally `T` or a space, `HH:MM`, optional `:SS` (and a fraction, which is
 * dropped), and optionally `Z` or an offset (`+01:00`, `+0100`, `+01`). Without a zone the wall-clock time is
 * kept as written; with one it is converted to `timeZone` (the person's, else the server's: decision 0210). Anything
 * else means "now".
 */
const START_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** `raw` as a start in `timeZone`, or `nowMs` in `timeZone` when `raw` is not a string we can read. */
export function parseStart(raw: unknown, nowMs: number, timeZone: string): string {
  const parsed = typeof raw === 'string' ? parseStartText(raw.trim(), timeZone) : null;
  return parsed ?? formatWallClock(wallClockInZone(nowMs, timeZone));
}

/**
 * The zone the server converts zoned starts into: `TZ` when it names a zone this runtime knows (a leading `:`
 * is allowed, as POSIX does), otherwise UTC.
 */
export function serverTimeZone(tz: string | undefined = process.env.TZ): string {
  const name = tz?.trim().replace(/^:/, '');
  if (!name) return 'UTC';
  try {
    return wallClockFormat(name).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

function parseStartText(text: string, timeZone: string): string | null {
  const match = START_PATTERN.exec(text);
  if (!match) return null;
  const clock: WallClock = {
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: Number(match[4] ?? 0),
    minute: Number(match[5] ?? 0),
    second: Number(match[6] ?? 0),
  };
  if (!isCalendarDate(clock.year, clock.month, clock.day)) return null;
  if (clock.hour > 23 || clock.minute > 59 || clock.second > 59) return null;
  const zone = match[7];
  if (zone === undefined) return formatWallClock(clock);

  const offsetMinutes = parseOffsetMinutes(zone);
  if (offsetMinutes === null) return null;
  const converted = wallClockInZone(utcMillis(clock) - offsetMinutes * 60_000, timeZone);
  // Near the ends of the accepted years a conversion can leave them; such a value is as unreadable as any other.
  if (converted.year < GOAL_LIMITS.yearMin || converted.year > GOAL_LIMITS.yearMax) return null;
  return formatWallClock(converted);
}

/** `Z`, `+01:00`, `+0100` or `+01` as minutes east of UTC; null for an offset beyond 23:59. */
function parseOffsetMinutes(zone: string): number | null {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

function utcMillis(clock: WallClock): number {
  return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
}

function wallClockInZone(ms: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of wallClockFormat(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

function formatWallClock(clock: WallClock): string {
  const time = `${twoDigits(clock.hour)}:${twoDigits(clock.minute)}:${twoDigits(clock.second)}`;
  return `${formatDateKey(clock.year, clock.month, clock.day)} ${time}`;
}

/** `nowMs` as the wall clock `YYYY-MM-DD HH:MM:SS` in `timeZone` (the backup scheduler's idea of "03:00"). */
export function wallClockText(nowMs: number, timeZone: string): string {
  return formatWallClock(wallClockInZone(nowMs, timeZone));
}
