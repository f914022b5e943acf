import type { ErrorCode } from '../../common/contract/error-codes.js';
import type { en } from './en.js';

/** One text per Intl.PluralRules category the language uses; `other` is always required. */
export type PluralForms = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;
export type MessageKey = keyof typeof en;
export type PluralKey = { [K in MessageKey]: (typeof en)[K] extends string ? never : K }[MessageKey];
export type TextKey = Exclude<MessageKey, PluralKey>;
/** What every language file must provide: the same keys as en.ts, plurals where en has them. */
export type Messages = { [K in MessageKey]: (typeof en)[K] extends string ? string : PluralForms };

/** Every error code the server answers, and the app's own two, need a text (`error.<code>`). */
export type ErrorTextKey = `error.${ErrorCode | 'network' | 'unknown'}`;
type UntranslatedErrorCodes = Exclude<ErrorTextKey, MessageKey>;
/**
 * Fails the type check, naming the key, when en.ts lacks the text of an error code; de.ts and pl.ts must have en's
 * keys (`Messages`), so a code without its texts in any language cannot pass `npm run typecheck`.
 */
export const EVERY_ERROR_CODE_TRANSLATED: [UntranslatedErrorCodes] extends [never] ? true : UntranslatedErrorCodes =
  true;
