import type { ErrorCode } from '../../common/contract/error-codes.js';
import type { en } from './en.js';
import type { settingsEn } from './settings/en.js';

/** One text per Intl.PluralRules category the language uses; `other` is always required. */
export type PluralForms = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;
/** A language's texts for the English `T`: the same keys, plurals where English has them. */
type TextsLike<T> = { [K in keyof T]: T[K] extends string ? string : PluralForms };
/** Every English text: those the start loads (en.ts) and those a lazy page brings (settings/en.ts, decision 0192). */
type English = typeof en & typeof settingsEn;
export type MessageKey = keyof English;
export type PluralKey = { [K in MessageKey]: English[K] extends string ? never : K }[MessageKey];
export type TextKey = Exclude<MessageKey, PluralKey>;
/** What every language file must provide: the same keys as en.ts, plurals where en has them. */
export type Messages = TextsLike<typeof en>;
/** What every language's Settings texts must provide: the keys of settings/en.ts. */
export type SettingsMessages = TextsLike<typeof settingsEn>;
/** A language's texts once every lazy page's have been added. */
export type AllMessages = TextsLike<English>;

/** Every error code the server answers, and the app's own two, need a text (`error.<code>`). */
export type ErrorTextKey = `error.${ErrorCode | 'network' | 'unknown'}`;
type UntranslatedErrorCodes = Exclude<ErrorTextKey, MessageKey>;
/**
 * Fails the type check, naming the key, when en.ts lacks the text of an error code; de.ts and pl.ts must have en's
 * keys (`Messages`), so a code without its texts in any language cannot pass `npm run typecheck`.
 */
export const EVERY_ERROR_CODE_TRANSLATED: [UntranslatedErrorCodes] extends [never] ? true : UntranslatedErrorCodes =
  true;
