import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { ApiError } from '../../src/web/api.js';
import { errorText, FieldProblem, showError } from '../../src/web/errors.js';
import { addTexts, setUiLocale } from '../../src/web/i18n/index.js';
import { SETTINGS_TEXTS } from '../../src/web/i18n/settings/index.js';
import {
  fileText,
  importPlace,
  importPlaceText,
  isNewerExport,
  isSteadyExport,
  unreadableFileCode,
} from '../../src/web/import-place.js';

// The import's texts come with the Settings page (decision 0192).
addTexts(SETTINGS_TEXTS);
afterEach(() => setUiLocale('en'));

const GOAL_FORM = ['name', 'unit', 'daily', 'days', 'start'];

test("the field of a refusal is the server's `field`, never read from the English message", () => {
  const refusal = new ApiError(
    400,
    'invalid_goal',
    'name must be a finite number (a message that names another field)',
    null,
    'daily',
  );
  assert.equal(showError(refusal, GOAL_FORM).field, 'daily');
  const noField = new ApiError(400, 'invalid_goal', 'daily must be a finite number greater than 0');
  assert.equal(showError(noField, GOAL_FORM).field, null, 'without `field` the message goes above the form');
  const nested = new ApiError(400, 'invalid_goal', 'x', null, 'sets.2026-01-15[0]');
  assert.equal(showError(nested, GOAL_FORM).field, null, 'a field the form does not show');
  assert.equal(
    showError(new ApiError(400, 'password_too_short', 'x', null, 'password'), ['new_password'], {
      password: 'new_password',
    }).field,
    'new_password',
  );
  assert.equal(showError(new FieldProblem('unit', 'invalid_goal'), GOAL_FORM).field, 'unit');
});

test('the reason is translated by code and field, with the limits of the contract', () => {
  const daily = new ApiError(400, 'invalid_goal', 'whatever the server wrote', null, 'daily');
  assert.equal(errorText(daily), 'Enter a daily target greater than 0, at most 1,000,000,000.');
  assert.equal(
    errorText(new ApiError(400, 'invalid_goal', 'x', null, 'name')),
    'The name may have at most 200 characters.',
  );
  assert.equal(
    errorText(new ApiError(400, 'invalid_goal', 'x', null, 'sets')),
    'Please check this value.',
    "no text for the pair: the code's",
  );
  assert.equal(
    errorText(new ApiError(400, 'name_too_long', 'x', null, 'name')),
    'The name is too long (at most 100 characters).',
  );
  setUiLocale('de');
  assert.equal(
    errorText(new FieldProblem('days', 'invalid_goal')),
    'Gib eine ganze Zahl von Tagen von 1 bis 3.650 ein.',
  );
  setUiLocale('pl');
  assert.equal(errorText(new FieldProblem('unit', 'invalid_goal')), 'Jednostka może mieć najwyżej 50 znaków.');
});

test("a refused import's bad value is placed by its goal's number in the file and name, other paths as they are", () => {
  const document = { format: 'steady-export', goals: [{ name: 'Water' }, { name: 'Push-ups 💪' }, { name: ' ' }] };
  const place = (field: string, key: string | null = null) => importPlaceText(importPlace(field, document, key));
  // A goal's `sets` is refused as a whole (`goals[1].sets`) with the date concerned as `key`: the date the file
  // writes, a date that is none too, so it can be searched for (decision 0179).
  assert.equal(
    place('goals[1].sets', '2024-02-30'),
    'The first value that is not valid belongs to goal 2 in the file (“Push-ups 💪”), day 2024-02-30.',
  );
  assert.equal(
    place('goals[1].sets'),
    'The first value that is not valid belongs to goal 2 in the file (“Push-ups 💪”), field “Logged amounts”.',
  );
  // A value the goal form has a field for is named by that field's label, as the person knows it.
  assert.equal(
    place('goals[0].daily'),
    'The first value that is not valid belongs to goal 1 in the file (“Water”), field “Daily target”.',
  );
  assert.equal(
    place('goals[0].days'),
    'The first value that is not valid belongs to goal 1 in the file (“Water”), field “Number of days”.',
  );
  assert.equal(
    place('goals[0].reminder.time'),
    'The first value that is not valid belongs to goal 1 in the file (“Water”), field “reminder.time”.',
  );
  // Without a usable name (blank, missing goal, no goals array) or outside a goal, the path is shown whole.
  for (const field of ['goals[2].daily', 'goals[9].daily', 'goals[0]', 'version', 'goals'])
    assert.equal(place(field), `The first value that is not valid is at ${field}.`);
  assert.equal(
    importPlaceText(importPlace('goals[0].unit', { goals: 'none' })),
    'The first value that is not valid is at goals[0].unit.',
  );
  // The same places in German and Polish: the sentence's start, then the field or day.
  const goalOneIs: Record<'de' | 'pl', string> = {
    de: 'Der erste ungültige Wert gehört zum 1. Ziel der Datei („Water“), ',
    pl: 'Pierwsza nieprawidłowa wartość należy do celu nr 1 w pliku („Water”), ',
  };
  const translated: ['de' | 'pl', string, string | null, string][] = [
    ['de', 'goals[0].daily', null, 'Feld „Tagesziel“.'],
    ['de', 'goals[0].unit', null, 'Feld „Einheit“.'],
    ['de', 'goals[0].sets', '2024-02-30', 'Tag 2024-02-30.'],
    ['de', 'goals[0].sets', null, 'Feld „Eingetragene Mengen“.'],
    ['pl', 'goals[0].daily', null, 'pole „Cel dzienny”.'],
    ['pl', 'goals[0].sets', '2024-02-30', 'dzień 2024-02-30.'],
    ['pl', 'goals[0].sets', null, 'pole „Zapisane ilości”.'],
  ];
  for (const [locale, field, key, where] of translated) {
    setUiLocale(locale);
    assert.equal(place(field, key), goalOneIs[locale] + where);
  }
});

test('a file that is not a Steady export at all is told so in a plain sentence, before it is sent', () => {
  for (const document of [{ not: 'steady' }, [], null, 'steady-export', 42, { format: 'other', goals: [] }])
    assert.equal(isSteadyExport(document), false, JSON.stringify(document));
  assert.equal(isSteadyExport({ format: 'steady-export', version: 1, goals: [] }), true);
  // Refused at the file field, with the sentence for that field rather than the code's general one.
  const refusal = new FieldProblem('import-file', 'invalid_import');
  assert.equal(errorText(refusal), 'This file is not a Steady export.');
  setUiLocale('de');
  assert.equal(errorText(refusal), 'Diese Datei ist kein Steady-Export.');
  setUiLocale('pl');
  assert.equal(errorText(refusal), 'Ten plik nie jest eksportem Steady.');
  // What the server refuses is an export (the check above came first) with a bad value.
  assert.equal(
    errorText(new ApiError(400, 'invalid_import', 'x', null, 'goals[0].daily')),
    'Jedna z wartości w tym eksporcie jest nieprawidłowa.',
  );
});

test('a file the app can refuse unsent is told why: too large (naming the limit), damaged, from a newer Steady', () => {
  // A cut-off export is no JSON but still names its format; any other text never was an export (decision 0179).
  const exported = JSON.stringify({ format: 'steady-export', version: 1, goals: [{ name: 'Water', sets: {} }] });
  assert.equal(unreadableFileCode(exported.slice(0, -20)), 'invalid_json');
  assert.equal(unreadableFileCode('my notes, not JSON'), 'invalid_import');
  assert.equal(unreadableFileCode(''), 'invalid_import');
  assert.equal(isNewerExport({ format: 'steady-export', version: 2, goals: [] }), true);
  for (const version of [1, 0, '2', 1.5, undefined])
    assert.equal(isNewerExport({ format: 'steady-export', version, goals: [] }), false, String(version));

  const damaged = new FieldProblem('import-file', 'invalid_json');
  const newer = new FieldProblem('import-file', 'invalid_import', 'settings.importNewer');
  const tooLarge = new FieldProblem('import-file', 'body_too_large');
  assert.equal(errorText(damaged), 'This Steady export is damaged or incomplete.');
  assert.equal(errorText(newer), 'This file comes from a newer version of Steady.');
  assert.equal(errorText(tooLarge), 'Steady imports files of up to 20 MB; this one is larger.');
  setUiLocale('de');
  assert.equal(errorText(damaged), 'Dieser Steady-Export ist beschädigt oder unvollständig.');
  assert.equal(errorText(newer), 'Diese Datei stammt aus einer neueren Steady-Version.');
  assert.equal(errorText(tooLarge), 'Steady importiert Dateien bis 20 MB; diese ist größer.');
  setUiLocale('pl');
  assert.equal(errorText(damaged), 'Ten eksport Steady jest uszkodzony lub niekompletny.');
  assert.equal(errorText(newer), 'Ten plik pochodzi z nowszej wersji Steady.');
  assert.equal(errorText(tooLarge), 'Steady importuje pliki do 20 MB; ten jest większy.');
});

test('a file that is no UTF-8 is refused, not read with U+FFFD; a character cut off at its very end is left out', () => {
  // "Pompöki" as Latin-1 (an editor's "save as"): ö is the single byte 0xF6, which UTF-8 never has alone (0188).
  const document = JSON.stringify({ format: 'steady-export', version: 1, goals: [{ name: 'Pompöki', sets: {} }] });
  assert.equal(fileText(Buffer.from(document, 'latin1')), null);
  assert.equal(fileText(Buffer.from(document)), document);
  // A download cut inside 💪 (four bytes) is damaged, which the JSON check then says (decision 0179), not "no UTF-8".
  const withEmoji = Buffer.from('{"format":"steady-export","goals":[{"name":"Push-ups 💪"}]}');
  const cut = withEmoji.subarray(0, withEmoji.indexOf(Buffer.from('💪')) + 2);
  assert.equal(fileText(cut), '{"format":"steady-export","goals":[{"name":"Push-ups ');
  assert.equal(unreadableFileCode(fileText(cut)!), 'invalid_json');
});

test('an empty file and one that is no UTF-8 are told so in three languages', () => {
  const empty = new FieldProblem('import-file', 'invalid_import', 'settings.importEmpty');
  const notUtf8 = new FieldProblem('import-file', 'invalid_json', 'settings.importNotUtf8');
  const said = () => [errorText(empty), errorText(notUtf8)];
  assert.deepEqual(said(), [
    'This file is empty.',
    'This file is not saved as UTF-8, as Steady writes its exports, so some of its characters cannot be read. Save it as UTF-8 and choose it again.',
  ]);
  setUiLocale('de');
  assert.deepEqual(said(), [
    'Diese Datei ist leer.',
    'Diese Datei ist nicht als UTF-8 gespeichert, wie Steady seine Exporte schreibt, daher lassen sich manche Zeichen nicht lesen. Speichere sie als UTF-8 und wähle sie erneut.',
  ]);
  setUiLocale('pl');
  assert.deepEqual(said(), [
    'Ten plik jest pusty.',
    'Ten plik nie jest zapisany w UTF-8, jak Steady zapisuje eksporty, więc części znaków nie da się odczytać. Wystarczy zapisać go w UTF-8 i wybrać ponownie.',
  ]);
});

test("a body too large names the route's limit the server answered; a proxy's 413 without it keeps the general text", () => {
  const tooLarge = (maxBytes: number | null) => new ApiError(413, 'body_too_large', 'x', null, null, null, maxBytes);
  assert.equal(errorText(tooLarge(16 * 1024)), 'That is too much data at once: at most 16 KB can be sent here.');
  assert.equal(errorText(tooLarge(1024 * 1024)), 'That is too much data at once: at most 1 MB can be sent here.');
  assert.equal(errorText(tooLarge(20 * 1024 * 1024)), 'That is too much data at once: at most 20 MB can be sent here.');
  assert.equal(errorText(tooLarge(null)), 'That is too much data at once.');
  setUiLocale('de');
  assert.equal(
    errorText(tooLarge(16 * 1024)),
    'Das sind zu viele Daten auf einmal: Hier lassen sich höchstens 16 KB senden.',
  );
  setUiLocale('pl');
  assert.equal(errorText(tooLarge(16 * 1024)), 'To za dużo danych naraz: tutaj można wysłać najwyżej 16 KB.');
});
