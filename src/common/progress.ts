/**
 * Progress maths for a goal, shared by the web app and its unit tests. Pure functions over calendar dates written
 * as `YYYY-MM-DD` (the user's local dates; the server never shifts them). Date arithmetic runs on UTC midnights so
 * daylight-saving changes can never make a day 23 or 25 hours long.
 */

import { amountOn, formatDateKey, type GoalSets, parseDateKey } from './goal.js';

/** The parts of a goal the maths needs (the API's Goal has more). */
export interface GoalProgressInput {
  daily: number;
  /** At least 1, as every goal the API answers has (`isDayCount`). */
  days: number;
  /** `YYYY-MM-DD HH:MM:SS` (or any string starting with a date): only the calendar date counts. */
  start: string;
  sets: GoalSets;
}

export type DayState = 'met' | 'partly' | 'missed' | 'future';

const DAY_MS = 86_400_000;

/** The local calendar date of `date` as `YYYY-MM-DD` (never `toISOString()`, which is UTC). */
export function localDateKey(date: Date): string {
  return formatDateKey(date.getFullYear(), date.getMonth() + 1, date.getDate());
}

/** `key` plus `count` calendar days (negative goes back). */
export function addDays(key: string, count: number): string {
  return formatUtcKey(utcTime(key) + count * DAY_MS);
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcTime(to) - utcTime(from)) / DAY_MS);
}

/** Day of the week, 0 = Monday ... 6 = Sunday. */
export function weekdayIndex(key: string): number {
  return (new Date(utcTime(key)).getUTCDay() + 6) % 7;
}

/** The first calendar date of the goal. */
export function startDateKey(goal: Pick<GoalProgressInput, 'start'>): string {
  return goal.start.slice(0, 10);
}

/** The last calendar date of the goal (inclusive). */
export function endDateKey(goal: Pick<GoalProgressInput, 'start' | 'days'>): string {
  return addDays(startDateKey(goal), goal.days - 1);
}

/**
 * Recently asked goals' dates by start and length. A goal page asks for them several times a render (totals, streaks,
 * chart, calendar) and renders again on every tap: making 3,650 date keys each time was a quarter of a tap's time.
 * A page shows one goal's dates at a time, so a few are enough (a 3,650-day goal's keys take about 150 kB).
 */
const dateKeysCache = new Map<string, readonly string[]>();
const DATE_KEYS_CACHED = 8;

/** Every calendar date of the goal, first to last (shared between callers: never changed). */
export function goalDateKeys(goal: Pick<GoalProgressInput, 'start' | 'days'>): readonly string[] {
  const first = startDateKey(goal);
  const cacheKey = `${first} ${goal.days}`;
  const cached = dateKeysCache.get(cacheKey);
  if (cached) return cached;
  const keys = Object.freeze(Array.from({ length: goal.days }, (_, index) => addDays(first, index)));
  if (dateKeysCache.size >= DATE_KEYS_CACHED) dateKeysCache.delete(dateKeysCache.keys().next().value!);
  dateKeysCache.set(cacheKey, keys);
  return keys;
}

/** Sum of the amounts logged on `key`; floating-point noise (0.1 + 0.2) is rounded away. */
export function dayTotal(sets: GoalSets, key: string): number {
  return roundAmount(amountOn(sets, key));
}

/**
 * Which day of the goal `today` is: 1 on the start date, `days` on the last one. 0 before the start, and more than
 * `days` once the goal is over (callers show "not started" / "finished").
 */
export function dayNumber(goal: Pick<GoalProgressInput, 'start'>, today: string): number {
  const offset = daysBetween(startDateKey(goal), today);
  return offset < 0 ? 0 : offset + 1;
}

export function isWithinGoal(goal: Pick<GoalProgressInput, 'start' | 'days'>, key: string): boolean {
  const offset = daysBetween(startDateKey(goal), key);
  return offset >= 0 && offset < goal.days;
}

/** Total logged over the goal's days, against the whole target `daily × days`. */
export function goalTotals(goal: GoalProgressInput): { done: number; target: number } {
  const done = goalDateKeys(goal).reduce((sum, key) => sum + dayTotal(goal.sets, key), 0);
  return { done: roundAmount(done), target: roundAmount(goal.daily * goal.days) };
}

export function isMet(total: number, daily: number): boolean {
  return total >= daily && total > 0;
}

/**
 * The state of one day of the goal for the heatmap: met (target reached), partly (something logged), missed
 * (nothing and the day is over), future (still to come; today counts as to come until something is logged).
 */
export function dayState(goal: GoalProgressInput, key: string, today: string): DayState {
  const total = dayTotal(goal.sets, key);
  if (isMet(total, goal.daily)) return 'met';
  if (total > 0) return 'partly';
  return key < today ? 'missed' : 'future';
}

/**
 * Streaks of consecutive goal days that met the target. The current streak ends today, or yesterday while today is
 * still open (not having logged yet today does not break a streak); once it does not reach yesterday it is 0.
 * Days after today never count.
 */
export function streaks(goal: GoalProgressInput, today: string): { current: number; best: number } {
  const todayIndex = daysBetween(startDateKey(goal), today);
  // runs[i]: the met days in a row that end on goal day i (day 0 is the start date), up to today.
  const runs: number[] = [];
  for (const key of goalDateKeys(goal).slice(0, Math.max(todayIndex + 1, 0))) {
    runs.push(isMet(dayTotal(goal.sets, key), goal.daily) ? (runs.at(-1) ?? 0) + 1 : 0);
  }
  // Today's run if today is a met goal day, else yesterday's; an index outside the goal has no run.
  const current = runs[todayIndex] || runs[todayIndex - 1] || 0;
  return { current, best: Math.max(0, ...runs) };
}

/** Quick-log buttons: a few round steps well below the daily target (1, 5, 10, 25 ...) and the target itself. */
export function quickAmounts(daily: number): number[] {
  const steps = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];
  const below = steps.filter((step) => step <= daily / 2).slice(-3);
  const target = daily > 0 ? [roundAmount(daily)] : [1];
  return [...below, ...target.filter((value) => !below.includes(value))];
}

/**
 * The amount one tap logs on Today: the last amount logged (positive: a correction is not a habit), else the largest
 * round step of `quickAmounts` below the target, so a few taps meet it; a small target is logged whole.
 */
export function usualAmount(goal: Pick<GoalProgressInput, 'daily' | 'sets'>): number {
  const dates = Object.keys(goal.sets).sort();
  for (let index = dates.length - 1; index >= 0; index--) {
    const amounts = goal.sets[dates[index]!] ?? [];
    for (let at = amounts.length - 1; at >= 0; at--) if (amounts[at]! > 0) return amounts[at]!;
  }
  const quick = quickAmounts(goal.daily);
  return quick.length > 1 ? quick[quick.length - 2]! : quick[0]!;
}

/**
 * The decimals the app keeps of an amount or a target: what a typed amount is rounded to, and what every amount is
 * shown with (`amountFormat`, decision 0171), so "0,001 l" is logged and read as 0,001.
 */
export const AMOUNT_DECIMALS = 6;

/** Rounds to the decimals the app keeps, which also takes away binary floating-point noise (0.1 + 0.2). */
export function roundAmount(value: number): number {
  const scale = 10 ** AMOUNT_DECIMALS;
  return Math.round(value * scale) / scale;
}

function utcTime(key: string): number {
  const date = parseDateKey(key);
  if (!date) throw new RangeError(`not a YYYY-MM-DD date: ${key}`);
  return Date.UTC(date.year, date.month - 1, date.day);
}

function formatUtcKey(time: number): string {
  const date = new Date(time);
  return formatDateKey(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** Calendar windows on the goal page: this many whole months at a time for goals that span more. */
export const CALENDAR_MONTHS = 3;

/** `YYYY-MM` plus `count` months (negative goes back). */
export function addMonths(month: string, count: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + count;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export interface CalendarWindow {
  /** The goal's dates inside the window, first to last. */
  keys: readonly string[];
  /** First month (`YYYY-MM`) of the window before and after this one; null at the goal's ends. */
  previous: string | null;
  next: string | null;
}

/**
 * The goal's days in `months` whole calendar months from `firstMonth` (`YYYY-MM`), moved inside the goal's own
 * months, so a 3650-day goal is shown a quarter at a time instead of in ten thousand cells. A goal that spans no
 * more than `months` months is shown whole, without neighbours.
 */
export function calendarWindow(
  goal: Pick<GoalProgressInput, 'start' | 'days'>,
  firstMonth: string,
  months = CALENDAR_MONTHS,
): CalendarWindow {
  const startMonth = startDateKey(goal).slice(0, 7);
  const lastStart = addMonths(endDateKey(goal).slice(0, 7), 1 - months);
  const from = firstMonth > lastStart ? lastStart : firstMonth;
  const first = from < startMonth ? startMonth : from;
  const after = addMonths(first, months);
  const keys = goalDateKeys(goal).filter((key) => key >= first && key < after);
  return {
    keys,
    previous: first > startMonth ? addMonths(first, -months) : null,
    next: after <= endDateKey(goal).slice(0, 7) ? after : null,
  };
}

export interface WeekRow {
  /** The Monday of the week, which keys the row. */
  week: string;
  /** The month to name at the start of the row: the first row's, then each month on the row of its 4th day. */
  month: string | null;
  /** Monday to Sunday; null where the day is outside the window. */
  dates: (string | null)[];
}

/** The window's dates in Monday-first weeks. */
export function weekRows(keys: readonly string[]): WeekRow[] {
  const inWindow = new Set(keys);
  const rows: WeekRow[] = [];
  for (let week = addDays(keys[0]!, -weekdayIndex(keys[0]!)); week <= keys.at(-1)!; week = addDays(week, 7)) {
    const dates = Array.from({ length: 7 }, (_, index) => addDays(week, index)).map((key) =>
      inWindow.has(key) ? key : null,
    );
    // A month is named on the row of its 4th day: the first week it has most days of (the 1st may be a Sunday).
    const fourth = dates.find((key) => key?.endsWith('-04'));
    const month = rows.length === 0 ? keys[0]!.slice(0, 7) : (fourth?.slice(0, 7) ?? null);
    rows.push({ week, month, dates });
  }
  return rows;
}

/** Where the goal page's calendar opens: today's month last but one, so last month and next month show too. */
export function openingMonth(today: string, months = CALENDAR_MONTHS): string {
  return addMonths(today.slice(0, 7), months > 2 ? -1 : 0);
}

/** The daily chart of a long goal shows this many days (about a quarter), so a bar stays wider than a hairline. */
export const CHART_DAYS = 91;

/** The days the chart shows: the whole goal, or the last `limit` days up to today (the first ones before it starts). */
export function chartKeys(
  goal: Pick<GoalProgressInput, 'start' | 'days'>,
  today: string,
  limit = CHART_DAYS,
): readonly string[] {
  const keys = goalDateKeys(goal);
  if (keys.length <= limit) return keys;
  const todayIndex = Math.min(daysBetween(startDateKey(goal), today), keys.length - 1);
  const end = Math.max(todayIndex, limit - 1);
  return keys.slice(end + 1 - limit, end + 1);
}

/**
 * Round tick values for a value axis from 0 to at least `max`: steps of 1, 2, 2.5 or 5 times a power of ten,
 * about `count` of them above zero (for max 50: 0, 10, 20, 30, 40, 50).
 */
export function axisTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!;
  const ticks = [0];
  while (ticks[ticks.length - 1]! < max - 1e-9) ticks.push(roundAmount(ticks.length * step));
  return ticks;
}
