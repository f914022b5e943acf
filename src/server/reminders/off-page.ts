import { DEFAULT_LOCALE, isLocale, type Locale } from '../../common/locales.js';
import { escapeHtml } from '../mail/templates.js';

/**
 * The pages of the mail's "turn this reminder off" link. Opening the link shows one button (a GET must change
 * nothing: mail scanners open every link); the button, or a mail client's List-Unsubscribe-Post, turns it off.
 */
interface OffWording {
  title: string;
  ask: (goal: string) => string;
  button: string;
  done: (goal: string) => string;
  /** When the goal is gone (deleted since the mail was sent). */
  gone: string;
  open: string;
}

const WORDING: Record<Locale, OffWording> = {
  en: {
    title: 'Steady reminder',
    ask: (goal) => `Turn off the daily reminder for “${goal}”?`,
    button: 'Turn reminder off',
    done: (goal) => `The reminder for “${goal}” is off. You can set it again on the goal's page.`,
    gone: 'This reminder is off.',
    open: 'Open Steady',
  },
  de: {
    title: 'Steady-Erinnerung',
    ask: (goal) => `Die tägliche Erinnerung für „${goal}“ abschalten?`,
    button: 'Erinnerung abschalten',
    done: (goal) =>
      `Die Erinnerung für „${goal}“ ist abgeschaltet. Auf der Seite des Ziels kannst du sie wieder einstellen.`,
    gone: 'Diese Erinnerung ist abgeschaltet.',
    open: 'Steady öffnen',
  },
  pl: {
    title: 'Przypomnienie Steady',
    ask: (goal) => `Wyłączyć codzienne przypomnienie dla „${goal}”?`,
    button: 'Wyłącz przypomnienie',
    done: (goal) => `Przypomnienie dla „${goal}” jest wyłączone. Możesz je ponownie ustawić na stronie celu.`,
    gone: 'To przypomnienie jest wyłączone.',
    open: 'Otwórz Steady',
  },
};

function page(language: Locale, body: string): string {
  const words = WORDING[language];
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(words.title)}</title></head>
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
