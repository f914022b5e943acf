import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeHtml, passwordResetMail } from '../../../src/server/mail/templates.js';

const LINK = 'https://steady.example/?reset_selector=abc&reset_token=def';

test('the reset mail in each language carries the link in text and (escaped) in HTML', () => {
  const expected = {
    en: { subject: 'Reset your Steady password', action: 'Choose a new password', validity: 'valid for 24 hours' },
    de: { subject: 'Steady: Passwort zurücksetzen', action: 'Neues Passwort wählen', validity: '24 Stunden gültig' },
    pl: { subject: 'Steady: zresetuj hasło', action: 'Ustaw nowe hasło', validity: 'ważny przez 24 godziny' },
  };
  for (const [locale, words] of Object.entries(expected)) {
    const mail = passwordResetMail(locale, LINK);
    assert.equal(mail.subject, words.subject, locale);
    assert.ok(mail.text.includes(`${words.action}:\n${LINK}\n`), `${locale} text: ${mail.text}`);
    assert.ok(mail.text.includes(words.validity), `${locale} text validity`);
    assert.ok(mail.html.includes(`<html lang="${locale}">`), `${locale} html lang`);
    assert.ok(
      mail.html.includes('<a href="https://steady.example/?reset_selector=abc&amp;reset_token=def">'),
      `${locale} html link: ${mail.html}`,
    );
    assert.ok(mail.html.includes(words.action), `${locale} html action`);
    assert.ok(!mail.html.includes('&reset_token'), `${locale}: a bare & in HTML`);
  }
});

test('an unknown locale falls back to English', () => {
  assert.deepEqual(passwordResetMail('fr', LINK), passwordResetMail('en', LINK));
});

test('whatever the link holds cannot break out of the HTML', () => {
  const mail = passwordResetMail('en', 'https://x.example/?a="><script>alert(1)</script>');
  assert.ok(!mail.html.includes('<script>'), mail.html);
  assert.ok(
    mail.html.includes('href="https://x.example/?a=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'),
    mail.html,
  );
});

test('escapeHtml escapes the five special characters and nothing else', () => {
  assert.equal(
    escapeHtml(`<a href="x">Tom & Jerry's</a> ü`),
    '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt; ü',
  );
});
