import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ERROR_CODES } from '../../src/common/contract/error-codes.js';
import { LOCALES } from '../../src/common/locales.js';
import { preferredLocale } from '../../src/common/locales.js';
import { addTexts, formatNumber, MESSAGES, setUiLocale, t, tp } from '../../src/web/i18n/index.js';
import { SETTINGS_TEXTS } from '../../src/web/i18n/settings/index.js';

// Every check below covers the texts lazy pages add as well (decision 0192).
addTexts(SETTINGS_TEXTS);

const ROOT = path.resolve(import.meta.dirname, '../..');
const en = MESSAGES.en;

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();
}

test('every language has exactly the keys of en.ts, as text or plural alike', () => {
  const keys = Object.keys(en).sort();
  for (const locale of LOCALES) {
    const messages = MESSAGES[locale] as Record<string, unknown>;
    const own = Object.keys(messages).sort();
    assert.deepEqual(
      { missing: keys.filter((key) => !own.includes(key)), extra: own.filter((key) => !keys.includes(key)) },
      { missing: [], extra: [] },
      `keys of ${locale}.ts`,
    );
    for (const key of keys) {
      assert.equal(
        typeof messages[key],
        typeof (en as Record<string, unknown>)[key],
        `${locale} ${key}: text vs plural`,
      );
    }
  }
});

test('every text is filled in and uses the same {placeholders} as English', () => {
  for (const locale of LOCALES) {
    for (const [key, value] of Object.entries(MESSAGES[locale])) {
      const forms = typeof value === 'string' ? [value] : Object.values(value);
      const english = (en as Record<string, unknown>)[key];
      const reference = placeholders(typeof english === 'string' ? english : (english as { other: string }).other);
      for (const form of forms) {
        assert.ok(form.trim().length > 0, `${locale} ${key} is empty`);
        assert.deepEqual(placeholders(form), reference, `${locale} ${key} placeholders`);
      }
    }
  }
});

test('a unit follows its number with a no-break space, so a narrow screen never puts it alone on a line', () => {
  for (const locale of LOCALES) {
    for (const [key, value] of Object.entries(MESSAGES[locale])) {
      for (const form of typeof value === 'string' ? [value] : Object.values(value)) {
        for (const at of [...form.matchAll(/\{unit\}/g)].map((match) => match.index)) {
          assert.match(form.slice(0, at), /\{\w+\}\u00a0$/, `${locale} ${key}: ${JSON.stringify(form)}`);
        }
      }
    }
  }
});

test('a unit symbol stays on the line of its number; a unit word may go to the next line whole', (context) => {
  context.after(() => setUiLocale('en'));
  setUiLocale('de');
  assert.equal(t('goal.todayText', { done: 1, target: 2.25, unit: 'l' }), '1 / 2,25\u00a0l heute');
  assert.equal(t('goal.total', { done: 1, target: 20, unit: 'kcal' }), 'Gesamt 1 von 20\u00a0kcal');
  assert.equal(t('goal.todayText', { done: 1, target: 20, unit: 'Wiederholungen' }), '1 / 20 Wiederholungen heute');
  assert.equal(tp('chart.label', 3, { target: 20, unit: 'Seiten' }).endsWith('von 20 Seiten'), true);
});

test('plural texts have exactly the forms Intl.PluralRules uses for the language (Polish: one, few, many, other)', () => {
  for (const locale of LOCALES) {
    const categories = [...new Intl.PluralRules(locale).resolvedOptions().pluralCategories].sort();
    for (const [key, value] of Object.entries(MESSAGES[locale])) {
      if (typeof value === 'string') continue;
      assert.deepEqual(Object.keys(value).sort(), categories, `${locale} ${key}`);
      // Only the `one` form may say its count in words ("Logged once.", "Einmal", "raz"); every other shows it.
      for (const [category, form] of Object.entries(value)) {
        if (category !== 'one') assert.match(form, /#/, `${locale} ${key} shows the count`);
      }
    }
  }
});

test('Polish counts pick their plural forms, numbers follow the language', () => {
  setUiLocale('pl');
  assert.equal(tp('goal.streak', 1), 'Seria: 1 dzień');
  assert.equal(tp('goal.streak', 2), 'Seria: 2 dni');
  assert.equal(tp('goal.streak', 5), 'Seria: 5 dni');
  assert.equal(tp('goal.streak', 22), 'Seria: 22 dni');
  assert.equal(tp('error.too_many_attempts', 25), 'Zbyt wiele prób. Spróbuj ponownie za 25 sekund.');
  assert.equal(tp('error.too_many_attempts', 3), 'Zbyt wiele prób. Spróbuj ponownie za 3 sekundy.');
  assert.equal(
    t('goal.todayText', { done: 1500.5, target: 2000, unit: 'm' }),
    `${formatNumber(1500.5)} / ${formatNumber(2000)}\u00a0m dziś`,
  );
  assert.equal(formatNumber(1500.5), new Intl.NumberFormat('pl', { maximumFractionDigits: 2 }).format(1500.5));
  setUiLocale('de');
  assert.equal(tp('goal.streak', 1), 'Serie: 1 Tag');
  assert.equal(t('goal.dayOf', { day: 3, days: 30 }), 'Tag 3 von 30');
  assert.equal(formatNumber(1234.5), '1.234,5');
  setUiLocale('en');
  assert.equal(tp('goal.streak', 0), 'Streak: 0 days');
  assert.equal(formatNumber(1234.5), '1,234.5');
});

test("the administrator's count of users in Polish: 1 użytkownik, then użytkowników for 2, 5, 22 and 25", (t) => {
  t.after(() => setUiLocale('en'));
  setUiLocale('pl');
  // "użytkownik" names persons (masculine personal): after 2–4 it takes the genitive as after 5 ("dwóch
  // użytkowników"), and after 22–24 it must ("dwudziestu dwóch użytkowników"; "22 użytkownicy" is wrong).
  assert.deepEqual(
    [1, 2, 5, 22, 25].map((count) => tp('admin.count', count)),
    ['1 użytkownik', '2 użytkowników', '5 użytkowników', '22 użytkowników', '25 użytkowników'],
  );
});

test('before login the browser languages decide, falling back to English', () => {
  assert.equal(preferredLocale(['pl-PL', 'en-US']), 'pl');
  assert.equal(preferredLocale(['fr-FR', 'de-AT', 'en']), 'de');
  assert.equal(preferredLocale(['fr', 'es']), 'en');
  assert.equal(preferredLocale([]), 'en');
});

test('every error code of the contract has a translation (and the app its own: network, unknown)', () => {
  // The type check already refuses a missing one (i18n/types.ts); this shows it at run time too, per language.
  assert.ok(ERROR_CODES.length > 30, 'the contract lists the codes');
  for (const code of [...ERROR_CODES, 'network', 'unknown']) {
    for (const locale of LOCALES) {
      assert.ok(`error.${code}` in MESSAGES[locale], `${locale}.ts has no text for the error code "${code}"`);
    }
  }
});

test('every error code the server source uses is in the contract (HttpError only takes ErrorCode; this catches a cast)', () => {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(path.join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [path.join(dir, entry.name)]
          : [],
    );
  const pattern = /\b(?:badRequest|forbidden|notFound|conflict)\(\s*'([a-z_]+)'|new HttpError\(\s*\d+,\s*'([a-z_]+)'/g;
  const used = new Set<string>();
  for (const file of walk(path.join(ROOT, 'src/server'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) used.add((match[1] ?? match[2])!);
  }
  assert.ok(used.has('invalid_credentials') && used.has('email_taken'), 'the scan finds codes');
  assert.deepEqual(
    [...used].filter((code) => !(ERROR_CODES as readonly string[]).includes(code)),
    [],
  );
});

/** Every Polish text, plural forms one by one, with its key. */
function polishTexts(): Array<[string, string]> {
  return Object.entries(MESSAGES.pl).flatMap(([key, value]): Array<[string, string]> =>
    typeof value === 'string' ? [[key, value]] : Object.values(value).map((form): [string, string] => [key, form]),
  );
}

test('Polish addresses a person without a gender: no past or conditional forms of "you" (zaprosiłeś, byłabyś)', () => {
  // "Nie zaprosiłeś jeszcze nikogo." spoke to a man only (decision 0180). The server's Polish mails and pages too.
  const gendered = /\p{L}*(?:łeś|łaś|łbyś|łabyś)(?!\p{L})/u;
  const found = polishTexts().filter(([, text]) => gendered.test(text));
  assert.deepEqual(found, []);
  for (const file of ['mail/templates.ts', 'reminders/content.ts', 'reminders/off-page.ts']) {
    const source = readFileSync(path.join(ROOT, 'src/server', file), 'utf8');
    assert.doesNotMatch(source, gendered, file);
  }
});

test('Polish writes the pronouns of address capitalised, as in a letter (Twoje, Cię, Ci, Tobą, Ty), everywhere alike', () => {
  const lowercase =
    /(?<!\p{L})(?:ty|ciebie|tobie|tobą|cię|ci|twój|twoja|twoje|twojego|twojej|twoją|twoim|twoimi|twoich|twoi)(?!\p{L})/u;
  const found = polishTexts().filter(([, text]) => lowercase.test(text));
  assert.deepEqual(found, []);
});
