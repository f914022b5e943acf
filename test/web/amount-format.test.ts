/**
 * Amounts read as they are (decision 0171): a 0,001-litre entry on a 0,25-litre goal was shown as "0" in the toast,
 * on the one-tap button, in the goal page's list and on undo, because numbers were cut to two decimals.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axisTicks, roundAmount, usualAmount } from '../../src/common/progress.js';
import { GOAL_LIMITS } from '../../src/common/goal.js';
import { changedText, parseAmount } from '../../src/web/components/amounts.js';
import { errorText } from '../../src/web/errors.js';
import { goalStatusText } from '../../src/web/goal-status.js';
import { formatForInput, formatNumber, parseDecimal, setUiLocale, t } from '../../src/web/i18n/index.js';

const TODAY = '2026-11-25';
/** The tester's goal: 0,25 Liter Wasser a day, 0,001 logged today. */
const water = { daily: 0.25, days: 30, start: '2026-11-20 08:00:00', sets: { [TODAY]: [0.001] }, unit: 'Liter Wasser' };

test('amounts and targets show every decimal the app keeps, in de, en and pl', (context) => {
  context.after(() => setUiLocale('en'));
  const expected = {
    de: ['0,001', '0,123456', '1.234,567', '2,5', '0,3', '1.500'],
    en: ['0.001', '0.123456', '1,234.567', '2.5', '0.3', '1,500'],
    // Polish groups with a no-break space, from five digits on.
    pl: ['0,001', '0,123456', '1234,567', '2,5', '0,3', '1500'],
  };
  for (const [locale, figures] of Object.entries(expected)) {
    setUiLocale(locale as keyof typeof expected);
    // 0.1 + 0.2 is 0.30000000000000004: noise beyond the sixth decimal is not shown.
    assert.deepEqual([0.001, 0.123456, 1234.567, 2.5, 0.1 + 0.2, 1500].map(formatNumber), figures, locale);
    assert.equal(formatNumber(12_345.5), new Intl.NumberFormat(locale).format(12_345.5), locale);
  }
});

test("the tester's 0,001 Liter Wasser reads 0,001 in the toast, on the one-tap button, in the list and on undo", (context) => {
  context.after(() => setUiLocale('en'));
  setUiLocale('de');
  assert.equal(changedText('add', 0.001, water.unit), '0,001 Liter Wasser eingetragen.');
  assert.equal(changedText('remove', 0.001, water.unit), '0,001 Liter Wasser entfernt.');
  // Today's one-tap button logs the last amount again and shows it as "+0,001" (TodayRow).
  assert.equal(`+${formatNumber(usualAmount(water))}`, '+0,001');
  // The goal page's list of the day, its remove button and undo (PastDay, QuickLog).
  assert.equal(t('past.remove', { amount: formatNumber(0.001) }), '0,001 entfernen');
  assert.equal(` (${formatNumber(0.001)})`, ' (0,001)');
  // What is done, what is left, the totals.
  assert.equal(goalStatusText(water, TODAY), '0,001 / 0,25 Liter Wasser heute');
  assert.equal(t('today.left', { left: roundAmount(water.daily - 0.001) }), 'noch 0,249');
  assert.equal(t('goal.total', { done: 0.001, target: 7.5, unit: water.unit }), 'Gesamt 0,001 von 7,5 Liter Wasser');
  // The chart's axis of a goal this small: distinct labels, not five zeros.
  const labels = axisTicks(0.001).map(formatNumber);
  assert.deepEqual(labels, ['0', '0,00025', '0,0005', '0,00075', '0,001']);
});

test('a form shows a target with its decimals, which read back unchanged', (context) => {
  context.after(() => setUiLocale('en'));
  for (const locale of ['de', 'en', 'pl'] as const) {
    setUiLocale(locale);
    for (const value of [0.001, 0.25, 1234.567, 0.123456, 10_000, 1e-7])
      assert.equal(parseDecimal(formatForInput(value)), value, `${locale} ${value}`);
  }
  setUiLocale('de');
  assert.equal(formatForInput(1234.567), '1234,567');
});

test('an amount finer than the app keeps (only another client stores one) never reads 0', (context) => {
  context.after(() => setUiLocale('en'));
  setUiLocale('de');
  assert.equal(formatNumber(1e-7), '1E-7');
  assert.equal(formatNumber(-2.5e-9), '-2,5E-9');
  assert.equal(changedText('add', 1e-7, 'l'), '1E-7\u00a0l eingetragen.');
  // In a field it is written out, so an edit that leaves the target alone saves it unchanged.
  assert.equal(formatForInput(1e-7), '0,0000001');
  assert.equal(formatNumber(0), '0');
});

test("a typed amount that cannot be logged says why: not in digits, over the server's limit, or not above 0", (context) => {
  context.after(() => setUiLocale('en'));
  // The tester's "1e6" and "99999999999999999999" were both "Enter an amount greater than zero."
  const refusals = {
    de: [
      'Gib die Menge in Ziffern ein, etwa 2,5.',
      'Gib eine Menge von höchstens 1.000.000.000 ein.',
      'Gib eine Menge größer als null ein.',
    ],
    en: [
      'Enter the amount in digits, such as 2.5.',
      'Enter an amount of at most 1,000,000,000.',
      'Enter an amount greater than zero.',
    ],
    pl: [
      'Podaj ilość cyframi, np. 2,5.',
      'Podaj ilość nie większą niż 1\u00a0000\u00a0000\u00a0000.',
      'Podaj ilość większą od zera.',
    ],
  };
  for (const [locale, [digits, tooLarge, notPositive]] of Object.entries(refusals)) {
    setUiLocale(locale as keyof typeof refusals);
    const why = (raw: string) => errorText(parseAmount(raw));
    for (const raw of ['1e6', 'abc', '', '2,5,5']) assert.equal(why(raw), digits, `${locale} ${raw}`);
    for (const raw of ['99999999999999999999', '1000000001']) assert.equal(why(raw), tooLarge, `${locale} ${raw}`);
    for (const raw of ['-5', '0', ' - 2 ']) assert.equal(why(raw), notPositive, `${locale} ${raw}`);
  }
  // The server's own limit, and its last amount, still go through.
  assert.equal(parseAmount(String(GOAL_LIMITS.amountAbsMax)), GOAL_LIMITS.amountAbsMax);
  assert.equal(parseAmount(' 7 '), 7);
});
