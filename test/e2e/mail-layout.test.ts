/**
 * The mails are read on phones: at 320 px the reset mail (its link as text) and a reminder for a goal named in one
 * 200-character word stay as wide as the screen, in de, en and pl (`htmlMail`, src/server/mail/templates.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { passwordResetMail } from '../../src/server/mail/templates.js';
import { reminderFacts, reminderMail } from '../../src/server/reminders/content.js';
import { chromiumAvailable, launchBrowser } from './support.js';

const LONG_WORD = 'Unbreakable'.repeat(19);
const RESET_LINK = `https://steady.example.org/?reset_selector=${'a'.repeat(32)}&reset_token=${'b'.repeat(64)}`;
const goalDay = { name: LONG_WORD, unit: LONG_WORD, daily: 50, start: '2026-01-01 00:00:00', days: 30, total: 35 };
const links = {
  goal: 'https://steady.example.org/#/goal/7',
  off: 'https://steady.example.org/api/reminders/off/7.3.s',
};

test('the reset and reminder mails are no wider than a 320 px phone, with a long link and a long goal name', async (t) => {
  if (!chromiumAvailable(t)) return;
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 320, height: 640 }, isMobile: true });
  for (const locale of ['de', 'en', 'pl']) {
    const mails = {
      reset: passwordResetMail(locale, RESET_LINK),
      reminder: reminderMail(locale, reminderFacts(goalDay), links, '19:30'),
    };
    for (const [name, mail] of Object.entries(mails)) {
      await page.setContent(mail.html);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `the ${name} mail in ${locale} is ${width} px wide on a 320 px screen`);
    }
  }
});
