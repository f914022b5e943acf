import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { reminderFacts, reminderLine, reminderMail, reminderPush } from '../../../src/server/reminders/content.js';
import { reminderOffDonePage, reminderOffQuestionPage } from '../../../src/server/reminders/off-page.js';
import { belowTarget } from '../../../src/server/reminders/schedule.js';

const day = { name: 'Push-ups <daily>', unit: 'reps', daily: 50, start: '2026-01-01 00:00:00', days: 30, total: 35 };
const links = {
  goal: 'https://steady.example.org/#/goal/7',
  off: 'https://steady.example.org/api/reminders/off/7.3.sig',
};

test('the reminder mail in de, en and pl names the goal and what is left with its unit; written to the temp folder to be read', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-reminder-mails-'));
  const expected = {
    en: '15\u00a0reps left today (35 of 50)',
    de: 'heute noch 15\u00a0reps (35 von 50)',
    pl: 'dziś jeszcze 15\u00a0reps (35 z 50)',
  };
  for (const [locale, line] of Object.entries(expected)) {
    const mail = reminderMail(locale, reminderFacts(day), links, '19:30');
    fs.writeFileSync(path.join(folder, `reminder-${locale}.txt`), `Subject: ${mail.subject}\n\n${mail.text}`);
    fs.writeFileSync(path.join(folder, `reminder-${locale}.html`), mail.html);
    assert.equal(mail.subject, `Push-ups <daily> – ${line}`);
    assert.ok(mail.text.split('\n').includes(`Push-ups <daily> – ${line}`), mail.text);
    assert.ok(mail.html.includes(`<strong>Push-ups &lt;daily&gt;</strong> – ${line}`), mail.html);
    assert.ok(mail.text.includes(links.goal) && mail.text.includes(links.off));
    assert.ok(mail.text.includes('19:30'));
    assert.ok(mail.html.includes(`<html lang="${locale}">`));
    assert.ok(mail.html.includes('Push-ups &lt;daily&gt;'), 'the goal name is escaped');
    assert.ok(!mail.html.includes('<daily>'));
    assert.ok(mail.html.includes(`href="${links.off}"`));
  }
  console.log(`# reminder mails written to ${folder}`);
  // Unknown languages fall back to English; decimals and no unit read naturally.
  assert.equal(reminderMail('xx', reminderFacts(day), links, '08:00').subject, `Push-ups <daily> – ${expected.en}`);
  assert.equal(
    reminderLine('de', { goalName: 'Wasser', unit: '', done: 1.5, target: 2, left: 0.5 }),
    'Heute noch 0,5 (1,5 von 2)',
  );
});

// Decision 0178: the tester's mails read "Pompki: Dziś zostało: 22 razy (0 z 22)" and "1 reps: 1 rep left today: 0 of 1".
test('a reminder reads as one line after the goal: no second colon, the plural form the count takes, in de, en and pl', () => {
  const facts = (goalName: string, unit: string, done: number, target: number) =>
    reminderFacts({ ...day, name: goalName, unit, daily: target, total: done });
  const pompki = reminderMail('pl', facts('Pompki', 'razy', 0, 22), links, '07:30');
  assert.equal(pompki.subject, 'Pompki – dziś jeszcze 22\u00a0razy (0 z 22)');
  assert.ok(pompki.text.split('\n').includes('Pompki – dziś jeszcze 22\u00a0razy (0 z 22)'), pompki.text);
  const reps = reminderMail('en', facts('1 reps', 'reps', 0, 1), links, '07:30');
  assert.equal(reps.subject, '1 reps – 1\u00a0rep left today (0 of 1)');
  assert.ok(reps.text.split('\n').includes('1 reps – 1\u00a0rep left today (0 of 1)'), reps.text);
  for (const mail of [pompki, reps]) {
    const goalLine = mail.text.split('\n')[2]!;
    assert.ok(!goalLine.includes(':'), `no colon in "${goalLine}"`);
  }
  // A push is the goal as title and the line as a sentence of its own.
  assert.equal(reminderLine('pl', facts('Pompki', 'razy', 0, 22)), 'Dziś jeszcze 22\u00a0razy (0 z 22)');
  // Plural forms of counted units, by the count left; a unit symbol joined to its number, a word not (decision 0229).
  const lines: Array<[string, string, number, number, string]> = [
    ['en', 'reps', 49, 50, '1\u00a0rep left today (49 of 50)'],
    ['en', 'minutes', 0, 2.5, '2.5 minutes left today (0 of 2.5)'],
    ['de', 'Wiederholungen', 49, 50, 'Heute noch 1 Wiederholung (49 von 50)'],
    ['de', 'Gläser', 5, 8, 'Heute noch 3 Gläser (5 von 8)'],
    ['pl', 'razy', 21, 22, 'Dziś jeszcze 1\u00a0raz (21 z 22)'],
    ['pl', 'powtórzeń', 48, 50, 'Dziś jeszcze 2 powtórzenia (48 z 50)'],
    ['pl', 'powtórzeń', 45, 50, 'Dziś jeszcze 5 powtórzeń (45 z 50)'],
    ['pl', 'minut', 29, 30, 'Dziś jeszcze 1 minuta (29 z 30)'],
    ['pl', 'km', 1.5, 5, 'Dziś jeszcze 3,5\u00a0km (1,5 z 5)'],
  ];
  for (const [locale, unit, done, target, line] of lines) {
    assert.equal(reminderLine(locale, facts('x', unit, done, target)), line);
  }
});

test('a reminder says what is left with every decimal the app keeps, and none when the float sum has met the target', () => {
  // 0,001 of 0,25 litres: "0,249 left", not "0,25" (decision 0171).
  const water = { ...day, name: 'Wasser', unit: 'Liter Wasser', daily: 0.25, total: 0.001 };
  assert.equal(reminderLine('de', reminderFacts(water)), 'Heute noch 0,249 Liter Wasser (0,001 von 0,25)');
  assert.equal(reminderLine('en', reminderFacts(water)), '0.249 Liter Wasser left today (0.001 of 0.25)');
  assert.equal(reminderLine('pl', reminderFacts(water)), 'Dziś jeszcze 0,249 Liter Wasser (0,001 z 0,25)');
  // The database adds floats: 0.7 + 0.1 + 0.1 is 0.8999999999999999, which the app shows as 0,9 and counts as met.
  const floatSum = { ...water, daily: 0.9, total: 0.7 + 0.1 + 0.1 };
  assert.equal(belowTarget(floatSum), false);
  const facts = reminderFacts(floatSum);
  assert.deepEqual([facts.done, facts.left], [0.9, 0]);
  assert.equal(belowTarget({ ...floatSum, total: 0.899999 }), true);
  assert.equal(
    reminderLine('de', reminderFacts({ ...water, total: 0.1 + 0.2, daily: 0.5 })),
    'Heute noch 0,2 Liter Wasser (0,3 von 0,5)',
  );
});

test('the reminder-off pages escape the goal name and post back to the link', () => {
  const question = reminderOffQuestionPage('pl', '<b>x</b>', '/api/reminders/off/1.2.abc');
  assert.ok(question.includes('&lt;b&gt;x&lt;/b&gt;'));
  assert.ok(question.includes('<form method="post" action="/api/reminders/off/1.2.abc">'));
  assert.ok(reminderOffDonePage('de', null, 'https://s.example').includes('Diese Erinnerung ist abgeschaltet.'));
});

test('a goal name or unit stored with a newline (before decision 0205) gives a subject and push title on one line', () => {
  const stored = { ...day, name: 'Push-ups\r\nBcc: evil@example.org', unit: 'reps\n' };
  const mail = reminderMail('en', reminderFacts(stored), links, '19:30');
  assert.equal(mail.subject, 'Push-ups Bcc: evil@example.org – 15\u00a0reps left today (35 of 50)');
  assert.ok(mail.text.split('\n').includes(mail.subject), mail.text);
  assert.equal(
    JSON.parse(reminderPush('en', reminderFacts(stored), links.goal)).title,
    'Push-ups Bcc: evil@example.org',
  );
});
