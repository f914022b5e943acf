/**
 * How amounts, targets and what is left of them are written, in the web app and in reminders (decision 0171): with
 * as many decimals as they have, up to the `AMOUNT_DECIMALS` the app keeps, so an amount is never shown as something
 * it is not ("0,001 Liter", not "0 Liter"). Pure Intl: no DOM, no Node.
 */
import { AMOUNT_DECIMALS, roundAmount } from './progress.js';

/**
 * Writes a number for `locale`: to be read, grouped ("1.234,567"); or to be put into a text field, without grouping,
 * so the app's parser reads it back ("1234,567"). Derived figures (sums, differences) are rounded with
 * `roundAmount` first, as everywhere in the app: anything finer than the app keeps is then a stored value.
 */
export function amountFormat(locale: string, use: 'read' | 'input' = 'read'): (value: number) => string {
  // Read: the language's own grouping (Polish leaves 1234 alone; `useGrouping: true` would mean "always").
  const grouping = use === 'read' ? {} : { useGrouping: false };
  const kept = new Intl.NumberFormat(locale, { maximumFractionDigits: AMOUNT_DECIMALS, ...grouping });
  // Finer than a millionth: only another client or an import can store that. Read as "1E-7" (short whatever its
  // size, never "0"); in a field written out, so saving a form unchanged keeps the value.
  const finer = new Intl.NumberFormat(locale, {
    maximumSignificantDigits: AMOUNT_DECIMALS,
    ...grouping,
    notation: use === 'read' ? 'scientific' : 'standard',
  });
  return (value) => (value !== 0 && roundAmount(value) === 0 ? finer : kept).format(value);
}
