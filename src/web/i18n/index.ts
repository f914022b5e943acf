/**
 * The UI language: lookup, placeholders, plurals (Intl.PluralRules) and Intl number/date formatting for the chosen
 * locale. The app re-renders from the top when the language changes, so a module-level "current" is enough.
 * No DOM here, so unit tests can run it in Node.
 */
import { amountFormat } from '../../common/amount-format.js';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../common/locales.js';
import { beforeUnit } from '../../common/units.js';
import { de } from './de.js';
import { en } from './en.js';
import { pl } from './pl.js';
import type { AllMessages, PluralForms, PluralKey, TextKey } from './types.js';

/**
 * Every language's texts. The start brings its own; a lazy page adds its texts (`addTexts`) when its chunk loads,
 * before it shows anything, so only those pages may use them (decision 0192).
 */
export const MESSAGES = { de: { ...de }, en: { ...en }, pl: { ...pl } } as Record<Locale, AllMessages>;

/** Adds a lazy page's texts of every language. */
export function addTexts(texts: Record<Locale, Partial<AllMessages>>): void {
  for (const locale of LOCALES) Object.assign(MESSAGES[locale], texts[locale]);
}

let current: Locale = DEFAULT_LOCALE;
let plurals = new Intl.PluralRules(current);
let numbers = amountFormat(current);
let fieldNumbers = amountFormat(current, 'input');
let marks = numberMarks(current);

export function setUiLocale(next: Locale): void {
  current = next;
  plurals = new Intl.PluralRules(next);
  numbers = amountFormat(next);
  fieldNumbers = amountFormat(next, 'input');
  marks = numberMarks(next);
}

type Vars = Record<string, string | number>;

/** The text for `key` with `{placeholders}` filled in; numbers are formatted for the language. */
export function t(key: TextKey, vars: Vars = {}): string {
  return fill(MESSAGES[current][key], vars);
}

/** A counted text: the plural form Intl.PluralRules picks for `count`, `#` replaced by the formatted count. */
export function tp(key: PluralKey, count: number, vars: Vars = {}): string {
  return fill(template(key, count), { ...vars, count });
}

/** `t`, or `tp` for a counted text, whose count is `vars.count`. */
export function text(key: TextKey | PluralKey, vars: Vars): string {
  return fill(template(key, vars.count), vars);
}

/**
 * The text for `key` with its `{placeholders}` still in it; of a counted text the form for `count`, its `#` as
 * `{count}` (for withFigures, which puts a figure in each).
 */
export function template(key: TextKey | PluralKey, count: Vars[string] = 0): string {
  const forms: string | PluralForms = MESSAGES[current][key];
  if (typeof forms === 'string') return forms;
  return (forms[plurals.select(Number(count))] ?? forms.other).replace(/#/g, '{count}');
}

export function hasText(key: string): key is TextKey {
  return key in MESSAGES[current] && typeof MESSAGES[current][key as TextKey] === 'string';
}

/**
 * `text` with the no-break space the texts write before `{unit}` as `beforeUnit` has it for `unit`: kept before a
 * unit symbol, a space before a word.
 */
export function spacedForUnit(text: string, unit: Vars[string] | undefined): string {
  return typeof unit === 'string' && beforeUnit(unit) === ' ' ? text.replace(/\u00a0\{unit\}/g, ' {unit}') : text;
}

function fill(text: string, vars: Vars): string {
  return spacedForUnit(text, vars.unit).replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = vars[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? formatNumber(value) : value;
  });
}

/**
 * A number for the language: amounts, targets and what is left with every decimal the app keeps ("0,001", never "0";
 * decision 0171), counts as they are. A figure meant to be rounded (a percentage) is rounded by its caller.
 */
export function formatNumber(value: number): string {
  return numbers(value);
}

/** A number to put into a text field: the language's decimal mark, no grouping, so `parseDecimal` reads it back. */
export function formatForInput(value: number): string {
  return fieldNumbers(value);
}

export function uiLocale(): Locale {
  return current;
}

/** The decimal mark and the thousands separator the language's own number format writes ("1.234.567,5" in German). */
interface NumberMarks {
  decimal: string;
  group: string;
}

function numberMarks(locale: Locale): NumberMarks {
  const parts = new Intl.NumberFormat(locale).formatToParts(1_234_567.5);
  const mark = (type: 'decimal' | 'group', fallback: string) =>
    parts.find((part) => part.type === type)?.value ?? fallback;
  return { decimal: mark('decimal', '.'), group: mark('group', ',') };
}

/**
 * "10.000", "1.000.000", "5.002,5": whole thousands grouped by points, then perhaps a decimal comma. The first group
 * never starts with 0: "0.250" is a quarter typed on a keypad that offers only a point (decision 0170).
 */
const THOUSANDS_BY_POINTS = /^[1-9]\d{0,2}(\.\d{3})+(,\d*)?$/;

/**
 * A number as a person types it (decision 0096): the language's decimal mark ("2,5" in German and Polish) or a
 * point, which phone keypads often offer instead; spaces are ignored. Only where the language itself groups
 * thousands with points (German, not Polish, which writes "10 000") are points between groups of three digits read
 * as grouping, as the app shows them ("10.000", "5.002,5"; decisions 0143, 0170); elsewhere a point is the decimal
 * mark ("1.500" is 1.5 in Polish). Other group separators are refused rather than guessed ("1,500" in English,
 * "1.50.000"), so no typed amount is silently read as another. Null when not a number.
 */
export function parseDecimal(raw: string): number | null {
  const spaced = raw.replace(/[\s\u00a0\u202f]/g, '');
  const grouped = marks.group === '.' && THOUSANDS_BY_POINTS.test(spaced);
  const text = grouped ? spaced.replace(/\./g, '') : spaced;
  const separators = [...text].filter((char) => char === '.' || char === marks.decimal);
  if (separators.length > 1) return null;
  const normal = text.replace(marks.decimal, '.');
  return /^(\d+(\.\d*)?|\.\d+)$/.test(normal) ? Number(normal) : null;
}

/** Date formatters by language and style: the calendar formats one date per cell, up to 3650 of them. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(style: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${current} ${style}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(current, options);
    dateFormats.set(key, format);
  }
  return format;
}

const DAY: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };

/** A calendar date `YYYY-MM-DD` in words, e.g. "Mon, 12 May" (the year only when it is not this year). */
export function formatDay(key: string): string {
  const [year, month, day] = key.split('-').map(Number) as [number, number, number];
  const date = new Date(year, month - 1, day);
  return year === new Date().getFullYear()
    ? dateFormat('day', DAY).format(date)
    : dateFormat('day-year', { ...DAY, year: 'numeric' }).format(date);
}

/** A moment (ISO string or Unix seconds) as a date, e.g. "12 May 2025". */
export function formatMoment(value: string | number): string {
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return dateFormat('moment', { day: 'numeric', month: 'short', year: 'numeric' }).format(date);
}

/** A month `YYYY-MM` short, for the calendar's rows: "Nov", "Jan 2027" when the year is not this one. */
export function formatMonth(month: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const date = new Date(year, index - 1, 1);
  return year === new Date().getFullYear()
    ? dateFormat('month', { month: 'short' }).format(date)
    : dateFormat('month-year', { month: 'short', year: '2-digit' }).format(date);
}

/** Months `YYYY-MM` from first to last in words: "October – December 2026". */
export function formatMonthRange(first: string, last: string): string {
  const [fromYear, fromMonth] = first.split('-').map(Number) as [number, number];
  const [toYear, toMonth] = last.split('-').map(Number) as [number, number];
  return dateFormat('month-range', { month: 'long', year: 'numeric' }).formatRange(
    new Date(fromYear, fromMonth - 1, 1),
    new Date(toYear, toMonth - 1, 1),
  );
}

/** Narrow weekday names Monday first, in the current language. */
export function weekdayNames(): string[] {
  const format = dateFormat('weekday', { weekday: 'narrow' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, index) => format.format(new Date(2024, 0, 1 + index)));
}

export { LOCALES };
export type { Locale };
