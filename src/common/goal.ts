/**
 * The Goal as the API speaks it, and pure helpers that server and web app share (docs/decisions/0030-0032).
 * No Node or DOM APIs here: the web bundle imports this file.
 */

import { LIMITS } from './limits.js';

/** Amounts logged per calendar date: `{ "2026-01-15": [20, 15] }`. Keys are the user's local dates. */
export type GoalSets = Record<string, number[]>;

/** The Goal of the API, as the contract's schema says (common/contract/schemas.ts). */
export type { Goal } from './contract/schemas.js';

export const GOAL_DEFAULTS = { unit: 'Stück', daily: 1, days: 30 } as const;

/**
 * Caps that bound one goal's size (docs/decisions/0032-goal-validation.md). 3660 dates is ten years of daily
 * logging; 1000 amounts a day allows logging single repetitions; 1e9 keeps sums of whole amounts exact in a double.
 */
export const GOAL_LIMITS = {
  setsDatesMax: 3660,
  amountsPerDateMax: 1000,
  amountAbsMax: 1e9,
  dailyMax: 1e9,
  yearMin: 1000,
  yearMax: 9999,
  /** Goals one user may have (docs/decisions/0063-resource-caps.md). */
  goalsPerUserMax: 200,
  /**
   * Stored size of one goal's `sets` (canonical JSON, ASCII): about ten years of daily logging with a few amounts
   * a day. With `goalsPerUserMax` it bounds the goal list to 25 MiB (docs/decisions/0063-resource-caps.md).
   */
  setsJsonMaxBytes: 128 * 1024,
} as const;

const DATE_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface CalendarDate {
  year: number;
  /** 1 = January. */
  month: number;
  day: number;
}

/** The parts of a real calendar date written `YYYY-MM-DD` (years 1000–9999); null for `2026-02-30` or any other text. */
export function parseDateKey(key: string): CalendarDate | null {
  const match = DATE_KEY.exec(key);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return isCalendarDate(date.year, date.month, date.day) ? date : null;
}

/** `YYYY-MM-DD` for a calendar date; the year is taken as four digits (the accepted years are 1000–9999). */
export function formatDateKey(year: number, month: number, day: number): string {
  return `${year}-${twoDigits(month)}-${twoDigits(day)}`;
}

/** `7` as `07`: months, days, hours, minutes and seconds are written with two digits. */
export function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** True for a real calendar date written `YYYY-MM-DD` (years 1000–9999): `2026-02-30` is false. */
export function isDateKey(value: unknown): value is string {
  return typeof value === 'string' && parseDateKey(value) !== null;
}

export function isCalendarDate(year: number, month: number, day: number): boolean {
  return (
    year >= GOAL_LIMITS.yearMin &&
    year <= GOAL_LIMITS.yearMax &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** A goal's daily target: a finite number greater than 0, at most `dailyMax`; fractions are allowed. */
export function isDailyTarget(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= GOAL_LIMITS.dailyMax;
}

/** A goal's number of days: a whole number from 1 to `LIMITS.goalDaysMax`. */
export function isDayCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= LIMITS.goalDaysMax;
}

/** An amount as stored in `sets`: a finite number no larger than `amountAbsMax` either way. */
export function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= GOAL_LIMITS.amountAbsMax;
}

/** An amount that may be logged through the logging endpoints: as `isAmount`, and not 0 (logging 0 does nothing). */
export function isLoggableAmount(value: unknown): value is number {
  return isAmount(value) && value !== 0;
}

/** Sum of the amounts logged on `date` (0 when nothing is logged). */
export function amountOn(sets: GoalSets, date: string): number {
  return (sets[date] ?? []).reduce((sum, amount) => sum + amount, 0);
}
