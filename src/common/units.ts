/**
 * Units that read right with any count (decision 0096). A goal's unit is free text, stored once; when it is one of
 * the counted words below, in any of its forms, it is shown (in the app and in reminders) in the form its own language's Intl.PluralRules picks
 * for the number in front of it ("1 rep", "5 powtórzeń"), and after "of" a number in the case that needs ("0 z 4
 * stron", "0 von 4 Gläsern"). Any other unit ("km", "Stück") is shown as typed.
 */
import type { Locale } from './locales.js';

/** A word's forms by Intl.PluralRules category; `other` is always there. */
type PluralForms = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;

interface CountedUnit {
  /** The language of the word, which decides its plural rules (not the language the app is shown in). */
  locale: Locale;
  forms: PluralForms;
  /**
   * The forms after "of" a number where they differ from `forms`: Polish "z" takes the genitive ("0 z 4 stron",
   * "0 z 1 strony"), German "von" the dative ("0 von 4 Gläsern").
   */
  of?: PluralForms;
  /** "times", "Mal", "razy": a count of occurrences, so one of them reads "once". */
  occurrences?: true;
}

/** The suggestions of the new-goal form are the `other` forms of the user's language, in this order. */
const COUNTED_UNITS: CountedUnit[] = [
  { locale: 'en', forms: { one: 'time', other: 'times' }, occurrences: true },
  { locale: 'en', forms: { one: 'rep', other: 'reps' } },
  { locale: 'en', forms: { one: 'minute', other: 'minutes' } },
  { locale: 'en', forms: { one: 'page', other: 'pages' } },
  { locale: 'en', forms: { one: 'step', other: 'steps' } },
  { locale: 'en', forms: { one: 'glass', other: 'glasses' } },
  { locale: 'de', forms: { one: 'Mal', other: 'Mal' }, occurrences: true },
  { locale: 'de', forms: { one: 'Wiederholung', other: 'Wiederholungen' } },
  { locale: 'de', forms: { one: 'Minute', other: 'Minuten' } },
  { locale: 'de', forms: { one: 'Seite', other: 'Seiten' } },
  { locale: 'de', forms: { one: 'Schritt', other: 'Schritte' }, of: { one: 'Schritt', other: 'Schritten' } },
  { locale: 'de', forms: { one: 'Glas', other: 'Gläser' }, of: { one: 'Glas', other: 'Gläsern' } },
  {
    locale: 'pl',
    forms: { one: 'raz', few: 'razy', many: 'razy', other: 'razy' },
    of: { one: 'razu', few: 'razy', many: 'razy', other: 'razu' },
    occurrences: true,
  },
  {
    locale: 'pl',
    forms: { one: 'powtórzenie', few: 'powtórzenia', many: 'powtórzeń', other: 'powtórzenia' },
    of: { one: 'powtórzenia', few: 'powtórzeń', many: 'powtórzeń', other: 'powtórzenia' },
  },
  {
    locale: 'pl',
    forms: { one: 'minuta', few: 'minuty', many: 'minut', other: 'minuty' },
    of: { one: 'minuty', few: 'minut', many: 'minut', other: 'minuty' },
  },
  {
    locale: 'pl',
    forms: { one: 'strona', few: 'strony', many: 'stron', other: 'strony' },
    of: { one: 'strony', few: 'stron', many: 'stron', other: 'strony' },
  },
  {
    locale: 'pl',
    forms: { one: 'krok', few: 'kroki', many: 'kroków', other: 'kroku' },
    of: { one: 'kroku', few: 'kroków', many: 'kroków', other: 'kroku' },
  },
  {
    locale: 'pl',
    forms: { one: 'szklanka', few: 'szklanki', many: 'szklanek', other: 'szklanki' },
    of: { one: 'szklanki', few: 'szklanek', many: 'szklanek', other: 'szklanki' },
  },
];

const rules = new Map<Locale, Intl.PluralRules>();

function pluralRules(locale: Locale): Intl.PluralRules {
  let found = rules.get(locale);
  if (!found) rules.set(locale, (found = new Intl.PluralRules(locale)));
  return found;
}

/** The counted unit `unit` is a form of: exactly as written first ("Minute" is German), then in any case. */
function countedUnit(unit: string): CountedUnit | undefined {
  const trimmed = unit.trim();
  const lower = trimmed.toLowerCase();
  return (
    COUNTED_UNITS.find((known) => Object.values(known.forms).includes(trimmed)) ??
    COUNTED_UNITS.find((known) => Object.values(known.forms).some((form) => form.toLowerCase() === lower))
  );
}

/** The longest unit kept on its number's line: a symbol such as "l", "km" or "kcal" (decision 0229). */
const UNIT_SYMBOL_MAX = 4;

/**
 * What stands between a number and the unit shown after it (decision 0229): a no-break space before a unit symbol
 * ("2,25 l"), so a narrow screen never puts the symbol alone on a line; a space before a word ("20 Wiederholungen"),
 * which on a phone at 200 % text must be free to go to the next line whole (decision 0203). The texts in i18n/ write
 * `\u00a0{unit}`, and the app turns it into a space for a word.
 */
export function beforeUnit(unit: string): string {
  return [...unit.trim()].length <= UNIT_SYMBOL_MAX ? '\u00a0' : ' ';
}

/**
 * `unit` in the form that goes with `count`: "rep" for 1, "reps" for 5; with `after: 'of'`, the form after "of"
 * that count ("Finished: 0 of 4 pages" is "0 z 4 stron"). Unknown units come back unchanged.
 */
export function unitText(unit: string, count: number, after: 'count' | 'of' = 'count'): string {
  const known = countedUnit(unit);
  if (!known) return unit;
  const forms = (after === 'of' && known.of) || known.forms;
  const form = forms[pluralRules(known.locale).select(count)] ?? forms.other;
  // Keep the writer's capital ("Reps" stays capitalised), never remove German nouns' capitals.
  const first = unit.trim().charAt(0);
  return first !== first.toLowerCase() ? form.charAt(0).toUpperCase() + form.slice(1) : form;
}

/** Whether `unit` counts occurrences ("times", "Mal", "razy"), so a count of one reads "once". */
export function countsOccurrences(unit: string): boolean {
  return countedUnit(unit)?.occurrences === true;
}

/** The units the new-goal form suggests in `locale`, the first one prefilled. */
export function suggestedUnits(locale: Locale): string[] {
  return COUNTED_UNITS.filter((known) => known.locale === locale).map((known) => known.forms.other);
}
