import { amountFormat } from '../../common/amount-format.js';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../common/locales.js';
import { cleanName } from '../../common/names.js';
import { roundAmount } from '../../common/progress.js';
import { beforeUnit, unitText } from '../../common/units.js';
import { escapeHtml, htmlMail, type RenderedMail } from '../mail/templates.js';
import type { GoalDay } from './goal-day-store.js';

/** The numbers of a reminder: what is left of the day's target, what is done, the target. */
export interface ReminderFacts {
  goalName: string;
  unit: string;
  done: number;
  target: number;
  left: number;
}

export function reminderFacts(day: GoalDay): ReminderFacts {
  // The database's sum is a float sum (0.1 + 0.2); rounded to what the app keeps, as the app's own totals are.
  const done = roundAmount(day.total);
  // Cleaned as a name is now stored (decision 0205): a row stored before may hold a newline, which must not reach
  // the mail's subject (a header line of its own in the outbox) or split the push title.
  const [goalName, unit] = [cleanName(day.name), cleanName(day.unit)];
  return { goalName, unit, done, target: day.daily, left: roundAmount(day.daily - done) };
}

interface ReminderWording {
  /**
   * "15 reps left today (35 of 50)", as it reads after the goal's name and a dash (German "heute noch 15 Wdh.
   * (35 von 50)"): one sentence, no colon, so the subject never reads "Pompki: Dziś zostało: 22 razy" (decision 0178).
   * No verb agrees with the amount (Polish would need "zostało 5", "zostały 2", "została 1 minuta"): "noch",
   * "jeszcze" say it for any count.
   */
  left(left: string, unit: string, done: string, target: string): string;
  greeting: string;
  open: string;
  why(time: string): string;
  off: string;
}

// A unit symbol stays on its number's line in a phone's notification and mail too (decision 0229).
const withUnit = (amount: string, unit: string) => (unit ? `${amount}${beforeUnit(unit)}${unit}` : amount);

const WORDING: Record<Locale, ReminderWording> = {
  en: {
    left: (left, unit, done, target) => `${withUnit(left, unit)} left today (${done} of ${target})`,
    greeting: 'Hello,',
    open: 'Open Steady',
    why: (time) => `You get this mail because you asked for a reminder at ${time} on the days this goal runs.`,
    off: 'Turn this reminder off',
  },
  de: {
    left: (left, unit, done, target) => `heute noch ${withUnit(left, unit)} (${done} von ${target})`,
    greeting: 'Hallo,',
    open: 'Steady öffnen',
    why: (time) => `Du bekommst diese Mail, weil du an den Tagen dieses Ziels um ${time} erinnert werden möchtest.`,
    off: 'Diese Erinnerung abschalten',
  },
  pl: {
    left: (left, unit, done, target) => `dziś jeszcze ${withUnit(left, unit)} (${done} z ${target})`,
    greeting: 'Cześć,',
    open: 'Otwórz Steady',
    why: (time) => `Dostajesz tę wiadomość, bo ustawiono przypomnienie o ${time} w dni tego celu.`,
    off: 'Wyłącz to przypomnienie',
  },
};

function languageOf(locale: string): Locale {
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

/** What is left, as it reads after the goal's name and a dash: "15 reps left today (35 of 50)", "heute noch ...". */
function leftPhrase(language: Locale, facts: ReminderFacts): string {
  // Every decimal the amounts have, as the app shows them (decision 0171): 0,249 left is not "0,25".
  const n = amountFormat(language);
  // The unit goes with what is left: "1 rep left", "15 reps left" (a counted unit; others as typed).
  return WORDING[language].left(n(facts.left), unitText(facts.unit, facts.left), n(facts.done), n(facts.target));
}

/** "15 reps left today (35 of 50)" in the user's language, as a sentence of its own ("Heute noch ..."). */
export function reminderLine(locale: string, facts: ReminderFacts): string {
  const phrase = leftPhrase(languageOf(locale), facts);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/** The goal and what is left of it: "Push-ups – 15 reps left today (35 of 50)", the mail's subject and first line. */
function goalLine(language: Locale, facts: ReminderFacts): string {
  return `${facts.goalName} – ${leftPhrase(language, facts)}`;
}

/** The link that opens the goal in the app (the app's pages live in the URL hash). */
export function goalLink(baseUrl: string, goalId: number): string {
  return `${baseUrl}/#/goal/${goalId}`;
}

/** The Web Push payload the service worker shows: title, text and the page a tap opens. */
export function reminderPush(locale: string, facts: ReminderFacts, url: string): string {
  return JSON.stringify({ title: facts.goalName, body: reminderLine(locale, facts), url });
}

/** The reminder mail; every value placed into the HTML is escaped. */
export function reminderMail(
  locale: string,
  facts: ReminderFacts,
  links: { goal: string; off: string },
  time: string,
): RenderedMail {
  const language = languageOf(locale);
  const words = WORDING[language];
  const subject = goalLine(language, facts);
  const text = [
    words.greeting,
    '',
    subject,
    '',
    `${words.open}: ${links.goal}`,
    '',
    '-- ',
    words.why(time),
    `${words.off}: ${links.off}`,
    '',
  ].join('\n');
  const html = htmlMail(language, subject, [
    `<p>${escapeHtml(words.greeting)}</p>`,
    `<p><strong>${escapeHtml(facts.goalName)}</strong> – ${escapeHtml(leftPhrase(language, facts))}</p>`,
    `<p><a href="${escapeHtml(links.goal)}">${escapeHtml(words.open)}</a></p>`,
    `<hr><p><small>${escapeHtml(words.why(time))}<br>`,
    `<a href="${escapeHtml(links.off)}">${escapeHtml(words.off)}</a></small></p>`,
  ]);
  return { subject, text, html };
}
