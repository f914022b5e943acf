import type { en } from './en.js';

/** One text per Intl.PluralRules category the language uses; `other` is always required. */
export type PluralForms = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;
export type MessageKey = keyof typeof en;
export type PluralKey = { [K in MessageKey]: (typeof en)[K] extends string ? never : K }[MessageKey];
export type TextKey = Exclude<MessageKey, PluralKey>;
/** What every language file must provide: the same keys as en.ts, plurals where en has them. */
export type Messages = { [K in MessageKey]: (typeof en)[K] extends string ? string : PluralForms };
