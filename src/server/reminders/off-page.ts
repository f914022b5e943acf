import { DEFAULT_LOCALE, isLocale, type Locale } from '../../common/locales.js';
import { escapeHtml } from '../mail/templates.js';

/**
 * The pages of the mail's "turn this reminder off" link. Opening the link shows one button (a GET must change
 * nothing: mail scanners open every link); the button, or a mail client's List-Unsubscribe-Post, turns it off.
 * A damaged or cut-off link gets a page too, not the API's JSON: a person opened it from a mail (decision 0178).
 */
interface OffWording {
  title: string;
  ask: (goal: string) => string;
  button: string;
  done: (goal: string) => string;
  /** When the goal is gone (deleted since the mail was sent). */
  gone: string;
  /** A link whose signature does not check out: damaged, cut off by the mail program, or made up. */
  invalid: string;
  invalidHelp: string;
  open: string;
}

const WORDING: Record<Locale, OffWording> = {
  en: {
    title: 'Steady reminder',
    ask: (goal) => `Turn off the daily reminder for “${goal}”?`,
    button: 'Turn reminder off',
    done: (goal) => `The reminder for “${goal}” is off. You can set it again on the goal's page.`,
    gone: 'This reminder is off.',
    invalid: 'This link to turn a reminder off is not valid.',
    invalidHelp:
      "It may have been cut off: open the whole link from the mail, or turn the reminder off on the goal's page in Steady.",
    open: 'Open Steady',
  },
  de: {
    title: 'Steady-Erinnerung',
    ask: (goal) => `Die tägliche Erinnerung für „${goal}“ abschalten?`,
    button: 'Erinnerung abschalten',
    done: (goal) =>
      `Die Erinnerung für „${goal}“ ist abgeschaltet. Auf der Seite des Ziels kannst du sie wieder einstellen.`,
    gone: 'Diese Erinnerung ist abgeschaltet.',
    invalid: 'Dieser Link zum Abschalten einer Erinnerung ist ungültig.',
    invalidHelp:
      'Vielleicht wurde er abgeschnitten: Öffne den ganzen Link aus der Mail, oder schalte die Erinnerung auf der Seite des Ziels in Steady ab.',
    open: 'Steady öffnen',
  },
  pl: {
    title: 'Przypomnienie Steady',
    ask: (goal) => `Wyłączyć codzienne przypomnienie dla „${goal}”?`,
    button: 'Wyłącz przypomnienie',
    done: (goal) => `Przypomnienie dla „${goal}” jest wyłączone. Możesz je ponownie ustawić na stronie celu.`,
    gone: 'To przypomnienie jest wyłączone.',
    invalid: 'Ten link do wyłączenia przypomnienia jest nieprawidłowy.',
    invalidHelp:
      'Mógł zostać obcięty: otwórz cały link z wiadomości albo wyłącz przypomnienie na stronie celu w Steady.',
    open: 'Otwórz Steady',
  },
};

/**
 * Where the pages' stylesheet is served. The Content-Security-Policy (`style-src 'self'`, http/security-headers.ts)
 * allows no `<style>` and no `style` attribute, so the look comes from this file of our own origin.
 */
export const OFF_PAGE_CSS_PATH = '/api/reminders/page.css';

/**
 * The pages' look: the app's colours (src/web/styles.css, light and dark), system fonts, phone first, a full-width
 * button at least 44 px tall and a link as tall to tap.
 */
export const OFF_PAGE_CSS = `:root {
  color-scheme: light dark;
  --bg: #f5f7f6;
  --text: #17201e;
  --accent: #0f766e;
  --accent-text: #ffffff;
  --focus: #1d4ed8;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1413;
    --text: #e8efed;
    --accent: #2dd4bf;
    --accent-text: #04201d;
    --focus: #93c5fd;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
}
main { max-width: 520px; margin: 0 auto; padding: 1.5rem 1rem; }
h1 { margin: 0 0 1rem; font-size: 1.5rem; line-height: 1.25; }
p, form { margin: 0 0 1rem; }
p { overflow-wrap: anywhere; }
button {
  display: block;
  width: 100%;
  min-height: 44px;
  padding: 0.5rem 1rem;
  border: 1px solid var(--accent);
  border-radius: 10px;
  background: var(--accent);
  color: var(--accent-text);
  font: inherit;
  font-weight: 600;
  cursor: pointer;
}
a { display: inline-flex; align-items: center; min-height: 44px; color: var(--text); text-underline-offset: 3px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
`;

function page(language: Locale, body: string): string {
  const words = WORDING[language];
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(words.title)}</title><link rel="stylesheet" href="${OFF_PAGE_CSS_PATH}"></head>
<body><main>
<h1>${escapeHtml(words.title)}</h1>
${body}
</main></body></html>
`;
}

const languageOf = (locale: string): Locale => (isLocale(locale) ? locale : DEFAULT_LOCALE);

export function reminderOffQuestionPage(locale: string, goalName: string, action: string): string {
  const language = languageOf(locale);
  const words = WORDING[language];
  return page(
    language,
    `<p>${escapeHtml(words.ask(goalName))}</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(words.button)}</button></form>`,
  );
}

/** `goalName` null: the goal no longer exists. */
export function reminderOffDonePage(locale: string, goalName: string | null, baseUrl: string): string {
  const language = languageOf(locale);
  const words = WORDING[language];
  return page(
    language,
    `<p>${escapeHtml(goalName === null ? words.gone : words.done(goalName))}</p>
<p><a href="${escapeHtml(baseUrl)}/">${escapeHtml(words.open)}</a></p>`,
  );
}

/** A link that is not one of ours (damaged, cut off, made up): says so, in the language given. */
export function reminderLinkInvalidPage(locale: string, baseUrl: string): string {
  const language = languageOf(locale);
  const words = WORDING[language];
  return page(
    language,
    `<p>${escapeHtml(words.invalid)}</p>
<p>${escapeHtml(words.invalidHelp)}</p>
<p><a href="${escapeHtml(baseUrl)}/">${escapeHtml(words.open)}</a></p>`,
  );
}
