/** The languages of the UI and the mails. */
export const LOCALES = ['de', 'en', 'pl'] as const;
export type Locale = (typeof LOCALES)[number];
/** Spec: default not shown; see docs/decisions/0002-default-locale.md. */
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
