/**
 * A 360 px phone at 200 % text is 180 px wide (decision 0203): in German, Polish and English, no heading, label or
 * button breaks a word without a hyphen ("Abgeschlos|sen", "Hinzufüge|n"), the date fields show their whole date,
 * and no page of Today, the goal page, its edit form, New goal, Settings or Invites is wider than the viewport.
 * Screenshots in pieces go to /tmp/steady-180/ for a person to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { addDays, localDateKey } from '../../src/common/progress.js';
import { apiFromPage, chromiumAvailable, cliInvite, registerOnForm, serverAndBrowser } from './support.js';

const SHOTS = '/tmp/steady-180';
const PASSWORD = 'narrow phone 123';

/** Goals in the language whose names are long words of it; one running, one upcoming, one finished. */
const GOALS = {
  de: ['Liegestütze', 'Zeitungslektüre', 'Spaziergänge'],
  pl: ['Przysiady', 'Czytanie książek', 'Spacerowanie'],
  en: ['Push-ups', 'Reading', 'Walking'],
} as const;

/**
 * Every word of every visible heading, section title, label and button that is drawn on more than one line: a word the browser
 * broke without a hyphen. With a hyphenation dictionary (phones have one) a break of a long word would be
 * hyphenated; Debian's Chromium has none, so any break found here is a break mid-word.
 */
async function wordsSplit(page: Page): Promise<string[]> {
  return page.locator('h1, h2, h3, .section-title, label, legend, button, .button').evaluateAll((headings) =>
    headings.flatMap((heading) => {
      if (!(heading as HTMLElement).offsetParent) return [];
      const split: string[] = [];
      const texts = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        if (text.parentElement?.closest('.visually-hidden')) continue;
        for (const word of text.textContent!.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          const tops = new Set(
            [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)),
          );
          if (tops.size > 1) split.push(`"${word[0]}" of "${heading.textContent}" on ${tops.size} lines`);
        }
      }
      return split;
    }),
  );
}

/**
 * Drop-downs whose chosen option is wider than their box. (A text field scrolls its text by design, and shows a
 * suggestion arrow while the pointer is over it, so its widths say nothing.)
 */
async function fieldsCut(page: Page): Promise<string[]> {
  return page
    .locator('select:visible')
    .evaluateAll((fields) =>
      fields.flatMap((field) =>
        field.scrollWidth > field.clientWidth ? [`#${field.id}: ${field.scrollWidth} px in ${field.clientWidth}`] : [],
      ),
    );
}

/**
 * Date fields too narrow for their date: Chromium draws it in its own shadow tree, which `scrollWidth` does not
 * see, so the room is compared with the date's text (either order of the parts) and the calendar button beside it
 * (1em wide, 1.5em from the text in Chromium's own style).
 */
async function datesCut(page: Page): Promise<string[]> {
  return page.locator('input[type=date]:visible').evaluateAll((fields) =>
    fields.flatMap((field) => {
      const style = getComputedStyle(field);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const text = Math.max(context.measureText('11/27/2026').width, context.measureText('27.11.2026').width);
      const needed = text + 2.5 * parseFloat(style.fontSize);
      const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return needed > room ? [`#${field.id}: the date needs ${Math.round(needed)} px, has ${room}`] : [];
    }),
  );
}

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

async function visit(page: Page, hash: string): Promise<void> {
  await page.evaluate((target) => (window.location.hash = target), hash);
  await page.locator('main h1').first().waitFor();
  // Lazy pages: their content, not only the heading, and two frames drawn.
  await page.waitForFunction(() => !document.querySelector('main .muted:only-child'));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The page in pieces of 180 × 800 px, each readable at its size (one full-page picture would be scaled down). */
async function screenshots(page: Page, name: string): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0, piece = 0; y < height; y += 800, piece++)
    await page.screenshot({
      path: `${SHOTS}/${name}-${piece}.png`,
      fullPage: true,
      clip: { x: 0, y, width: 180, height: Math.min(800, height - y) },
    });
}

for (const locale of ['de', 'pl', 'en'] as const) {
  test(`at 180 px (a phone at 200 % text) in ${locale}: headings, labels and buttons keep their words, date fields their date, no page is wider`, async (t) => {
    if (!chromiumAvailable(t)) return;
    mkdirSync(SHOTS, { recursive: true });
    const { server, browser } = await serverAndBrowser(t);
    const context = await browser.newContext({ locale, viewport: { width: 180, height: 640 } });
    t.after(() => context.close());
    const page = await context.newPage();
    await page.goto(await cliInvite(server));
    await registerOnForm(page, `narrow-${locale}@example.com`, PASSWORD);
    assert.equal(await page.evaluate(() => document.documentElement.lang), locale);

    const today = localDateKey(new Date());
    const [running, upcoming, finished] = GOALS[locale];
    const starts = [today, addDays(today, 3), addDays(today, -20)];
    const ids: string[] = [];
    for (const [index, name] of [running, upcoming, finished].entries()) {
      const goal = await apiFromPage(page, 'POST', '/api/goals', {
        name,
        unit: locale === 'de' ? 'Wiederholungen' : locale === 'pl' ? 'powtórzenia' : 'repetitions',
        daily: 20,
        days: index === 2 ? 10 : 30,
        start: starts[index],
      });
      assert.equal(goal.status, 200);
      ids.push(goal.body.id);
    }
    assert.equal((await apiFromPage(page, 'POST', '/api/invite', { note: 'Schwiegermutter' })).status, 200);
    await page.reload();

    const problems: string[] = [];
    const pages: Array<[string, string]> = [
      ['#/goals', 'today'],
      [`#/goal/${ids[0]}`, 'goal'],
      [`#/goal/${ids[0]}/edit`, 'edit'],
      ['#/new', 'new'],
      ['#/settings', 'settings'],
      ['#/invites', 'invites'],
    ];
    for (const [hash, name] of pages) {
      await visit(page, hash);
      if (name === 'today') for (const summary of await page.locator('summary').all()) await summary.click();
      await screenshots(page, `${locale}-${name}`);
      for (const split of await wordsSplit(page)) problems.push(`${name}: ${split}`);
      for (const cut of await fieldsCut(page)) problems.push(`${name}: ${cut} cut`);
      for (const cut of await datesCut(page)) problems.push(`${name}: ${cut}`);
      const width = await pageWidth(page);
      if (width > 180) problems.push(`${name}: the page is ${width} px wide`);
    }
    assert.deepEqual(problems, []);
  });
}
