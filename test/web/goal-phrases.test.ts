/**
 * Issue 9 point 6: what the goal page says and how it reads in de/en/pl — the status phrase of upcoming, running
 * and finished goals, units and counts in their plural forms, decimal commas, and the calendar's month windows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, axisTicks, calendarWindow, chartKeys, openingMonth, weekRows } from '../../src/common/progress.js';
import { changedText, isSurprising, parseAmount } from '../../src/web/components/amounts.js';
import { goalPhase, goalStatusText, todayRingLabel } from '../../src/web/goal-status.js';
import { FieldProblem } from '../../src/web/errors.js';
import { formatNumber, parseDecimal, setUiLocale, tp } from '../../src/web/i18n/index.js';
import { countsOccurrences, suggestedUnits, unitText } from '../../src/common/units.js';

const TODAY = '2026-11-25';
const goal = (start: string, days: number, sets: Record<string, number[]> = {}, unit = 'push-ups') => ({
  daily: 50,
  days,
  start: `${start} 08:00:00`,
  sets,
  unit,
});

test('the status phrase: today while running, "Starts in" before, the whole total once finished', (t) => {
  t.after(() => setUiLocale('en'));
  const running = goal(addDays(TODAY, -9), 30, { [TODAY]: [20, 15] });
  const upcoming = goal(addDays(TODAY, 3), 30);
  const tomorrow = goal(addDays(TODAY, 1), 30);
  const finished = goal(addDays(TODAY, -40), 30, { [addDays(TODAY, -35)]: [1000], [addDays(TODAY, -34)]: [420] });
  assert.deepEqual(
    [running, upcoming, finished].map((each) => goalPhase(each, TODAY)),
    ['running', 'upcoming', 'finished'],
  );
  // The last day still runs; the day after it is finished.
  assert.equal(goalPhase(goal(addDays(TODAY, -29), 30), TODAY), 'running');
  assert.equal(goalPhase(goal(addDays(TODAY, -30), 30), TODAY), 'finished');

  setUiLocale('en');
  assert.equal(goalStatusText(running, TODAY), '35 / 50 push-ups today');
  assert.equal(goalStatusText(upcoming, TODAY), 'Starts in 3 days');
  assert.equal(goalStatusText(tomorrow, TODAY), 'Starts in 1 day');
  assert.equal(goalStatusText(finished, TODAY), 'Finished: 1,420 of 1,500 push-ups');
  setUiLocale('de');
  assert.equal(goalStatusText(running, TODAY), '35 / 50 push-ups heute');
  assert.equal(goalStatusText(upcoming, TODAY), 'Beginnt in 3 Tagen');
  assert.equal(goalStatusText(tomorrow, TODAY), 'Beginnt in 1 Tag');
  assert.equal(goalStatusText(finished, TODAY), 'Abgeschlossen: 1.420 von 1.500 push-ups');
  setUiLocale('pl');
  assert.equal(goalStatusText(upcoming, TODAY), 'Start za 3 dni');
  assert.equal(goalStatusText(tomorrow, TODAY), 'Start za 1 dzień');
  assert.equal(goalStatusText(finished, TODAY), `Zakończono: ${formatNumber(1420)} z ${formatNumber(1500)} push-ups`);
  assert.equal(goalStatusText({ ...finished, unit: 'powtórzenia' }, TODAY).endsWith(' powtórzeń'), true);
});

test('after "of" a number, a counted unit takes its case there: "0 z 4 stron", "0 von 4 Gläsern"', (t) => {
  t.after(() => setUiLocale('en'));
  const ended = (unit: string, daily: number, days: number) => ({
    ...goal(addDays(TODAY, -40), days, {}, unit),
    daily,
  });
  setUiLocale('pl');
  // Polish "z" takes the genitive: singular for one and fractions, plural from two on.
  assert.deepEqual(
    [
      [1, 1],
      [2, 2],
      [1, 5],
      [11, 2],
      [5, 5],
      [0.5, 3],
    ].map(([daily, days]) => goalStatusText(ended('strony', daily!, days!), TODAY)),
    [
      'Zakończono: 0 z 1 strony',
      'Zakończono: 0 z 4 stron',
      'Zakończono: 0 z 5 stron',
      'Zakończono: 0 z 22 stron',
      'Zakończono: 0 z 25 stron',
      'Zakończono: 0 z 1,5 strony',
    ],
  );
  assert.equal(goalStatusText(ended('kroki', 2, 2), TODAY), 'Zakończono: 0 z 4 kroków');
  assert.equal(goalStatusText(ended('razy', 1, 1), TODAY), 'Zakończono: 0 z 1\u00a0razu');
  const running = { ...goal(addDays(TODAY, -1), 30, { [TODAY]: [1] }, 'szklanki'), daily: 3 };
  assert.equal(todayRingLabel(running, TODAY), '1 z 3 szklanek dziś');
  // The count's own form is unchanged: "3 szklanki".
  assert.equal(unitText('szklanki', 3), 'szklanki');
  setUiLocale('de');
  // German "von" takes the dative.
  assert.equal(goalStatusText(ended('Gläser', 2, 2), TODAY), 'Abgeschlossen: 0 von 4 Gläsern');
  assert.equal(goalStatusText(ended('Schritte', 1, 1), TODAY), 'Abgeschlossen: 0 von 1 Schritt');
  assert.equal(goalStatusText(ended('Seiten', 2, 2), TODAY), 'Abgeschlossen: 0 von 4 Seiten');
  setUiLocale('en');
  assert.equal(goalStatusText(ended('pages', 2, 2), TODAY), 'Finished: 0 of 4 pages');
  assert.equal(todayRingLabel({ ...running, unit: 'glasses' }, TODAY), '1 of 3 glasses today');
  // A unit of the user's own is never changed.
  assert.equal(goalStatusText(ended('Seiten lesen', 2, 2), TODAY), 'Finished: 0 of 4 Seiten lesen');
});

test('known units take the plural form their own language needs; unknown units stay as typed', () => {
  // English
  assert.equal(unitText('reps', 1), 'rep');
  assert.equal(unitText('rep', 5), 'reps');
  assert.equal(unitText('Reps', 1), 'Rep');
  assert.equal(unitText('times', 1), 'time');
  assert.equal(unitText('pages', 2.5), 'pages');
  // German: the capital of a noun stays; "Mal" does not change.
  assert.equal(unitText('Wiederholungen', 1), 'Wiederholung');
  assert.equal(unitText('Wiederholung', 20), 'Wiederholungen');
  assert.equal(unitText('Minute', 30), 'Minuten');
  assert.equal(unitText('Gläser', 1), 'Glas');
  assert.equal(unitText('Mal', 1), 'Mal');
  // Polish: one, few (2–4, 22–24), many (5–21, 25…), other (fractions).
  assert.deepEqual(
    [1, 2, 4, 5, 12, 21, 22, 25, 1.5].map((count) => unitText('powtórzenia', count)),
    [
      'powtórzenie',
      'powtórzenia',
      'powtórzenia',
      'powtórzeń',
      'powtórzeń',
      'powtórzeń',
      'powtórzenia',
      'powtórzeń',
      'powtórzenia',
    ],
  );
  assert.deepEqual(
    [1, 3, 5, 2.5].map((count) => unitText('minut', count)),
    ['minuta', 'minuty', 'minut', 'minuty'],
  );
  assert.equal(unitText('strona', 10), 'stron');
  // Anything else is the user's own word.
  for (const unit of ['km', 'Stück', 'push-ups', 'Kniebeugen']) assert.equal(unitText(unit, 1), unit);
  assert.deepEqual(
    [countsOccurrences('times'), countsOccurrences('Mal'), countsOccurrences('razy')],
    [true, true, true],
  );
  assert.equal(countsOccurrences('reps'), false);
});

test('"Logged once.", not "Logged 1 times.", in every language', (t) => {
  t.after(() => setUiLocale('en'));
  setUiLocale('en');
  assert.equal(changedText('add', 1, 'times'), 'Logged once.');
  assert.equal(changedText('add', 3, 'times'), 'Logged 3 times.');
  assert.equal(changedText('remove', 1, 'times'), 'Removed once.');
  assert.equal(changedText('add', 1, 'reps'), 'Logged 1\u00a0rep.');
  assert.equal(changedText('add', 2.5, 'km'), 'Logged 2.5\u00a0km.');
  setUiLocale('de');
  assert.equal(changedText('add', 1, 'Mal'), 'Einmal eingetragen.');
  assert.equal(changedText('add', 4, 'Mal'), '4 Mal eingetragen.');
  assert.equal(changedText('add', 1, 'Wiederholungen'), '1 Wiederholung eingetragen.');
  assert.equal(changedText('add', 2.5, 'Seiten'), '2,5 Seiten eingetragen.');
  setUiLocale('pl');
  assert.equal(changedText('add', 1, 'razy'), 'Zapisano raz.');
  assert.equal(changedText('add', 5, 'razy'), 'Zapisano 5 razy.');
  assert.equal(changedText('add', 5, 'powtórzenia'), 'Zapisano 5 powtórzeń.');
  assert.equal(changedText('remove', 2, 'strony'), 'Usunięto 2 strony.');
});

test('every counted text picks its form: chart labels and day counts in de, en and pl', (t) => {
  t.after(() => setUiLocale('en'));
  setUiLocale('en');
  assert.match(tp('chart.label', 1, { target: 5, unit: 'km' }), /of 1 day against/);
  assert.match(tp('chart.label', 30, { target: 5, unit: 'km' }), /of 30 days against/);
  assert.equal(tp('goal.runs', 1, { date: 'x' }), '1 day from x');
  setUiLocale('de');
  assert.match(tp('chart.label', 1, { target: 5, unit: 'km' }), /von 1 Tag gegen/);
  assert.equal(tp('goal.ended', 30, { date: 'x' }), '30 Tage, endete am x');
  setUiLocale('pl');
  assert.match(tp('chart.label', 22, { target: 5, unit: 'km' }), /z 22 dni na/);
  assert.match(tp('chart.label', 1, { target: 5, unit: 'km' }), /z 1 dnia na/);
  assert.equal(tp('goal.runs', 5, { date: 'x' }), '5 dni od x');
});

test('the new-goal form suggests counted units in the user\'s language, "times" first', () => {
  assert.equal(suggestedUnits('en')[0], 'times');
  assert.equal(suggestedUnits('de')[0], 'Mal');
  assert.equal(suggestedUnits('pl')[0], 'razy');
  assert.ok(suggestedUnits('de').includes('Wiederholungen'));
  assert.ok(suggestedUnits('pl').includes('powtórzenia'));
  assert.ok(!suggestedUnits('en').includes('Wiederholungen'));
});

test('amounts take the decimal comma in German and Polish, a point everywhere, and refuse guesses', (t) => {
  t.after(() => setUiLocale('en'));
  for (const locale of ['de', 'pl'] as const) {
    setUiLocale(locale);
    assert.equal(parseDecimal('2,5'), 2.5, locale);
    assert.equal(parseDecimal(' 2.5 '), 2.5, locale);
    assert.equal(parseDecimal('1 500'), 1500, locale);
    assert.equal(parseDecimal(',5'), 0.5, locale);
    assert.equal(parseDecimal(formatNumber(5002.5)), 5002.5, locale);
    assert.equal(parseDecimal(formatNumber(12_345.5)), 12_345.5, locale);
    assert.equal(parseDecimal('2.50'), 2.5, locale);
    assert.equal(parseDecimal('12.5000'), 12.5, locale);
    // A point-only keypad's quarter litre: a number starting "0." is never grouped thousands (decision 0170).
    assert.equal(parseDecimal('0.250'), 0.25, locale);
    assert.equal(parseDecimal('0.001'), 0.001, locale);
    for (const bad of ['1.50.000', '1.000.5', '10.000.', '1.000,5,1', '2,5,1', '2.5,1', '0.250,5'])
      assert.equal(parseDecimal(bad), null, `${locale} ${bad}`);
    assert.equal(parseAmount('2,5'), 2.5, locale);
  }
  setUiLocale('en');
  assert.equal(parseDecimal('2.5'), 2.5);
  assert.equal(parseDecimal('0.250'), 0.25);
  assert.equal(parseDecimal('1.500'), 1.5);
  // In English a comma groups thousands; "1,500" is refused rather than read as 1.5 or 1500.
  assert.equal(parseDecimal('2,5'), null);
  assert.equal(parseDecimal('1,500'), null);
  for (const bad of ['', ' ', 'abc', '1e3', '-2', '0x10', '2.5.1', 'Infinity'])
    assert.equal(parseDecimal(bad), null, bad);
  // 0 is "greater than zero", with no text of its own; "0,0" in English is no number in digits at all.
  const zero = parseAmount('0');
  assert.ok(zero instanceof FieldProblem && zero.code === 'invalid_amount' && zero.text === undefined);
  const commaZero = parseAmount('0,0');
  assert.ok(commaZero instanceof FieldProblem && commaZero.text === 'goal.amountDigits');
});

test('points group thousands only in German, whose own numbers are written so; Polish groups with spaces', (t) => {
  t.after(() => setUiLocale('en'));
  setUiLocale('de');
  // As German writes them and the app shows them (decision 0143).
  assert.equal(parseDecimal('10.000'), 10_000);
  assert.equal(parseDecimal('1.000.000'), 1_000_000);
  assert.equal(parseDecimal('1.500,5'), 1500.5);
  assert.equal(parseDecimal(formatNumber(1_234_567.5)), 1_234_567.5);
  setUiLocale('pl');
  // Polish writes "10 000": a point is a keypad's decimal mark, so "1.500" km is one and a half (decision 0170).
  assert.equal(parseDecimal('1.500'), 1.5);
  assert.equal(parseAmount('1.500'), 1.5);
  assert.equal(parseDecimal('10.000'), 10);
  assert.equal(parseDecimal('10 000'), 10_000);
  assert.equal(parseDecimal('1 500,5'), 1500.5);
  assert.equal(parseDecimal(formatNumber(1_234_567.5)), 1_234_567.5);
  // Two separators still need a guess, so they are refused, not read as thousands.
  for (const bad of ['1.000.000', '1.500,5']) assert.equal(parseDecimal(bad), null, bad);
});

test('an amount over 100 daily targets is surprising', () => {
  assert.equal(isSurprising(5000, 50), false);
  assert.equal(isSurprising(5000.5, 50), true);
  assert.equal(isSurprising(1001, 10), true);
});

test('a long goal shows three whole months at a time, moved inside the goal; a short one shows whole', () => {
  const long = { start: '2026-01-10 08:00:00', days: 3650 };
  const opening = calendarWindow(long, openingMonth(TODAY));
  assert.equal(opening.keys[0], '2026-10-01');
  assert.equal(opening.keys.at(-1), '2026-12-31');
  assert.ok(opening.keys.includes(TODAY));
  assert.equal(opening.previous, '2026-07');
  assert.equal(opening.next, '2027-01');
  // At the start: the goal's first day, no earlier window.
  const first = calendarWindow(long, '2025-11');
  assert.equal(first.keys[0], '2026-01-10');
  assert.equal(first.keys.at(-1), '2026-03-31');
  assert.equal(first.previous, null);
  // Past the end: the last three months of the goal, ending on its last day.
  const last = calendarWindow(long, '2099-01');
  assert.equal(last.keys.at(-1), addDays('2026-01-10', 3649));
  assert.equal(last.next, null);
  assert.equal(last.keys[0]!.slice(8), '01');
  // Walking the windows forward reaches every day (the last window is pulled back to stay three months full).
  const seen = new Set<string>();
  let steps = 0;
  for (let month: string | null = '2026-01'; month !== null; steps++) {
    const window = calendarWindow(long, month);
    assert.ok(window.keys.length >= 59 && window.keys.length <= 92, `${month}: ${window.keys.length} days`);
    for (const key of window.keys) seen.add(key);
    month = window.next;
  }
  assert.equal(seen.size, 3650);
  assert.equal(steps, 41);
  // A 30-day goal across two months is one window without neighbours.
  const short = calendarWindow({ start: '2026-11-20 08:00:00', days: 30 }, openingMonth(TODAY));
  assert.deepEqual([short.keys.length, short.previous, short.next], [30, null, null]);
});

test('calendar rows: Monday-first weeks, each month named on the first row it has most days of', () => {
  const rows = weekRows(calendarWindow({ start: '2026-10-01', days: 92 }, '2026-10').keys);
  // 1 October 2026 is a Thursday: three blanks first.
  assert.deepEqual(rows[0]!.dates.slice(0, 4), [null, null, null, '2026-10-01']);
  assert.equal(rows[0]!.month, '2026-10');
  const named = rows.filter((row) => row.month !== null).map((row) => row.month);
  assert.deepEqual(named, ['2026-10', '2026-11', '2026-12']);
  // 1 November 2026 is a Sunday: November is named on the next row, the first week mostly its own.
  const november = rows.find((row) => row.month === '2026-11')!;
  assert.deepEqual([november.dates[0], november.dates.includes('2026-11-01')], ['2026-11-02', false]);
  assert.equal(rows.flatMap((row) => row.dates).filter(Boolean).length, 92);
});

test('value axis ticks are round and reach the highest bar', () => {
  assert.deepEqual(axisTicks(50), [0, 20, 40, 60]);
  assert.deepEqual(axisTicks(40), [0, 10, 20, 30, 40]);
  assert.deepEqual(axisTicks(1), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(axisTicks(3650), [0, 1000, 2000, 3000, 4000]);
  assert.deepEqual(axisTicks(0), [0, 1]);
  for (const max of [0.3, 7, 99, 12345]) assert.ok(axisTicks(max).at(-1)! >= max, `${max}`);
});

test('the chart of a long goal shows its last 91 days up to today, a short goal all of it', () => {
  const long = { start: '2026-01-01 08:00:00', days: 3650 };
  const keys = chartKeys(long, TODAY);
  assert.equal(keys.length, 91);
  assert.equal(keys.at(-1), TODAY);
  assert.deepEqual(
    chartKeys(long, '2025-06-01'),
    chartKeys(long, '2026-01-02'),
    'before and on its 2nd day: the first 91',
  );
  assert.equal(chartKeys(long, '2026-01-02')[0], '2026-01-01');
  assert.equal(chartKeys(long, '2099-01-01').at(-1), addDays('2026-01-01', 3649));
  assert.equal(chartKeys({ start: '2026-11-01', days: 30 }, TODAY).length, 30);
});
