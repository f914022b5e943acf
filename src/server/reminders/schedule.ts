import { roundAmount } from '../../common/progress.js';
import { DAY } from '../clock.js';
import { wallClockText } from '../goals/start.js';

/**
 * Pure rules of when a reminder is due (docs/decisions/0100-reminder-scheduler.md): compared on the wall clock of
 * the user's zone at each check, never by sleeping until a computed instant.
 */

/** The user's local date `YYYY-MM-DD` and time `HH:MM` at `now`. */
export function localDateAndTime(now: number, timeZone: string): { date: string; time: string } {
  const text = wallClockText(now, timeZone);
  return { date: text.slice(0, 10), time: text.slice(11, 16) };
}

/**
 * Due once the local time has reached the reminder's time on that local date. A time skipped by a DST change
 * (02:30 on the spring-forward day) is reached at 03:00; one that happens twice is claimed at its first pass.
 */
export function isTimeReached(localTime: string, reminderTime: string): boolean {
  return localTime >= reminderTime;
}

/**
 * Whether a reminder whose time was set at `setAt` (the user's local date and time then) rings on `date` at all: set
 * on an earlier date, or that day before its time, it does; set after its time had passed that day (or on a later
 * date, after the clock went back), it first rings the next day. A late send of a reminder missed while no server
 * ran is still right: it was set before its time (decision 0177). Compared to the minute, like `isTimeReached`:
 * set at 07:30 for 07:30, it rings at once.
 */
export function setInTimeFor(setAt: { date: string; time: string }, date: string, reminderTime: string): boolean {
  return setAt.date < date || (setAt.date === date && setAt.time <= reminderTime);
}

/** True when `date` is one of the goal's days: its start date through start + days − 1. */
export function runsOn(goal: { start: string; days: number }, date: string): boolean {
  const first = goal.start.slice(0, 10);
  if (date < first) return false;
  const last = new Date(Date.parse(`${first}T00:00:00Z`) + (goal.days - 1) * DAY).toISOString().slice(0, 10);
  return date <= last;
}

/**
 * Something is left of the day's target, as the app counts it: the database's float sum rounded to what the app
 * keeps, so 0.7 + 0.1 + 0.1 (0.8999999999999999) has met 0.9 and no reminder says "0 left" (decision 0171).
 */
export function belowTarget(goal: { daily: number; total: number }): boolean {
  return roundAmount(goal.total) < goal.daily;
}
