import { DEFAULT_LOCALE, isLocale, type Locale } from '../../common/locales.js';

/** A mail ready for `Mailer.send`, without the recipient. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface ResetWording {
  subject: string;
  greeting: string;
  intro: string;
  action: string;
  validity: string;
  ignore: string;
}

const RESET_WORDING: Record<Locale, ResetWording> = {
  en: {
    subject: 'Reset your Steady password',
    greeting: 'Hello,',
    intro: 'someone asked to reset the password of your Steady account.',
    action: 'Choose a new password',
    validity: 'The link works once and is valid for 24 hours.',
    ignore: 'If you did not ask for this, ignore this mail; your password stays as it is.',
  },
  de: {
    subject: 'Steady: Passwort zurücksetzen',
    greeting: 'Hallo,',
    intro: 'für dein Steady-Konto wurde das Zurücksetzen des Passworts angefordert.',
    action: 'Neues Passwort wählen',
    validity: 'Der Link funktioniert einmal und ist 24 Stunden gültig.',
    ignore: 'Wenn du das nicht angefordert hast, ignoriere diese Mail; dein Passwort bleibt unverändert.',
  },
  pl: {
    subject: 'Steady: zresetuj hasło',
    greeting: 'Cześć,',
    intro: 'ktoś poprosił o zresetowanie hasła do Twojego konta Steady.',
    action: 'Ustaw nowe hasło',
    validity: 'Link działa jeden raz i jest ważny przez 24 godziny.',
    ignore: 'Jeśli to nie Ty, zignoruj tę wiadomość; Twoje hasło pozostanie bez zmian.',
  },
};

/**
 * The password-reset mail in the user's language (unknown locales fall back to the default). Pure, so it is
 * tested without a mail server; every value placed into the HTML is escaped, the link included.
 */
export function passwordResetMail(locale: string, link: string): RenderedMail {
  const language: Locale = isLocale(locale) ? locale : DEFAULT_LOCALE;
  const words = RESET_WORDING[language];
  const text = [
    words.greeting,
    '',
    words.intro,
    '',
    `${words.action}:`,
    link,
    '',
    words.validity,
    words.ignore,
    '',
  ].join('\n');
  const html = htmlMail(language, words.subject, [
    `<p>${escapeHtml(words.greeting)}</p>`,
    `<p>${escapeHtml(words.intro)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(words.action)}</a></p>`,
    `<p>${escapeHtml(link)}</p>`,
    `<p>${escapeHtml(words.validity)}<br>${escapeHtml(words.ignore)}</p>`,
  ]);
  return { subject: words.subject, text, html };
}

/**
 * A mail's HTML around `body` (lines of markup, values already escaped). Most mail is read on a phone: the viewport
 * line keeps a mail app from shrinking it to a desktop page, and a word or link longer than the screen (the reset
 * link, a goal named in one long word) breaks instead of widening the mail beyond it.
 */
export function htmlMail(language: Locale, title: string, body: string[]): string {
  return [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="overflow-wrap: anywhere; word-break: break-word">',
    ...body,
    '</body></html>',
    '',
  ].join('\n');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}
