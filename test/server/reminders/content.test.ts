import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { reminderFacts, reminderLine, reminderMail } from '../../../src/server/reminders/content.js';
import { reminderOffDonePage, reminderOffQuestionPage } from '../../../src/server/reminders/off-page.js';

const day = { name: 'Push-ups <daily>', unit: 'reps', daily: 50, start: '2026-01-01 00:00:00', days: 30, total: 35 };
const links = {
  goal: 'https://steady.example.org/#/goal/7',
  off: 'https://steady.example.org/api/reminders/off/7.3.sig',
};

test('the reminder mail in de, en and pl names the goal and what is left with its unit; written to the temp folder to be read', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-reminder-mails-'));
  const expected = {
    en: '15 reps left today: 35 of 50',
    de: 'Heute noch 15 reps: 35 von 50',
    pl: 'Dziś zostało: 15 reps (35 z 50)',
  };
  for (const [locale, line] of Object.entries(expected)) {
    const mail = reminderMail(locale, reminderFacts(day), links, '19:30');
    fs.writeFileSync(path.join(folder, `reminder-${locale}.txt`), `Subject: ${mail.subject}\n\n${mail.text}`);
    fs.writeFileSync(path.join(folder, `reminder-${locale}.html`), mail.html);
    assert.equal(mail.subject, `Push-ups <daily> – ${line}`);
    assert.ok(mail.text.includes(line), mail.text);
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
    'Heute noch 0,5: 1,5 von 2',
  );
});

test('the reminder-off pages escape the goal name and post back to the link', () => {
  const question = reminderOffQuestionPage('pl', '<b>x</b>', '/api/reminders/off/1.2.abc');
  assert.ok(question.includes('&lt;b&gt;x&lt;/b&gt;'));
  assert.ok(question.includes('<form method="post" action="/api/reminders/off/1.2.abc">'));
  assert.ok(reminderOffDonePage('de', null, 'https://s.example').includes('Diese Erinnerung ist abgeschaltet.'));
});
