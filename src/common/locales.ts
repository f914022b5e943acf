/** The languages of the UI and the mails. */
export const LOCALES = ['de', 'en', 'pl'] as const;
export type Locale = (typeof LOCALES)[number];
/** Spec: default not shown; see docs/decisions/0002-default-locale.md. */
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The first of a person's preferred languages (tags like `de-AT`, most wanted first) that Steady speaks, else the
 * default: the browser's before login (web app), `Accept-Language` for a page of someone the server cannot name.
 */
export function preferredLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}
