/**
 * The goal page as people hit it daily (issue 9 point 6), at 390×844: a 3650-day goal keeps "Log or correct a day"
 * on the first screen and pages its calendar by months; finished and upcoming goals say so; a decimal comma logs in
 * German; an amount over 100 daily targets is asked about; Escape closes the delete question; axe finds nothing,
 * light and dark. Screenshots of each state go to SCREENSHOT_DIR (default test-results/screenshots) to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addDays, addMonths, localDateKey } from '../../src/common/progress.js';
import {
  apiFromPage,
  chromiumAvailable,
  cliInvite,
  type RunningServer,
  serverAndBrowser,
  assertNoAxeViolations,
  assertEventually,
} from './support.js';

const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const PHONE = { width: 390, height: 844 };
const today = localDateKey(new Date());

interface Goal {
  id: string;
  sets: Record<string, number[]>;
}

async function register(browser: Browser, server: RunningServer, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: PHONE });
  const page = await context.newPage();
  await page.goto(await cliInvite(server));
  await page.locator('#email').fill(`${locale}-${Date.now()}@example.com`);
  await page.locator('#password').fill('goal page 123');
  await page.locator('main button[type=submit]').click();
  await page.locator('main h1').waitFor();
  await page.waitForFunction(() => location.hash.includes('goals'));
  return page;
}

async function api<T = Goal>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await apiFromPage(page, method, path, body);
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

async function createGoal(
  page: Page,
  goal: { name: string; unit: string; daily: number; days: number; start: string },
) {
  return api(page, 'POST', '/api/goals', goal);
}

async function loggedToday(page: Page, goal: Goal): Promise<number[] | undefined> {
  const goals = await api<Goal[]>(page, 'GET', '/api/goals');
  return goals.find((each) => each.id === goal.id)?.sets[today];
}

async function open(page: Page, goal: Goal, name: string): Promise<void> {
  // Goals were made through the API behind the app's back: a reload loads them.
  await page.evaluate((id) => (location.hash = `#/goal/${id}`), goal.id);
  await page.reload();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-first-screen.png` });
}

async function factToday(page: Page): Promise<string> {
  return (await page.locator('.fact-today').innerText()).replace(/\s+/g, ' ');
}

test(
  'the goal page at 390×844: long goals, phrases, decimal comma, big amounts, Escape',
  { timeout: 180_000 },
  async (t) => {
    if (!chromiumAvailable(t)) return;
    const { server, browser } = await serverAndBrowser(t);

    await t.test(
      'a 3650-day goal: "Log or correct a day" on the first screen, the calendar pages by months',
      async () => {
        const page = await register(browser, server, 'en-GB');
        const start = addDays(today, -400);
        const goal = await createGoal(page, { name: 'Walk', unit: 'km', daily: 5, days: 3650, start });
        await api(page, 'POST', `/api/goals/${goal.id}/sets/${today}`, { amount: 3 });
        await api(page, 'POST', `/api/goals/${goal.id}/sets/${addDays(today, -1)}`, { amount: 6 });
        await open(page, goal, 'Walk');

        const past = page.getByRole('heading', { name: 'Log or correct a day' });
        const box = await past.boundingBox();
        assert.ok(
          box && box.y + box.height <= PHONE.height,
          `the heading ends at ${box ? box.y + box.height : '?'} px`,
        );

        // Three months at a time: last month, this one, next month; never thousands of cells.
        const cells = page.locator('.heatmap-grid li[data-date]');
        assert.ok((await cells.count()) <= 92, `${await cells.count()} calendar cells`);
        assert.equal(await page.locator('.heatmap-grid li.cell-today').count(), 1);
        const firstShown = await cells.first().getAttribute('data-date');
        assert.equal(firstShown, `${addMonths(today.slice(0, 7), -1)}-01`);
        const months = await page.locator('.heatmap-month').allInnerTexts();
        assert.equal(months.filter((text) => text.trim() !== '').length, 3, `month labels: ${months.join('|')}`);
        await shot(page, 'en-long-goal');
        await assertNoAxeViolations(page, 'goal page, 3650 days');

        await page.getByRole('button', { name: 'Earlier' }).click();
        await page.waitForFunction(
          (first) => document.querySelector('.heatmap-grid li[data-date]')?.getAttribute('data-date') !== first,
          firstShown,
        );
        assert.equal(await cells.first().getAttribute('data-date'), `${addMonths(today.slice(0, 7), -4)}-01`);
        assert.equal(await page.locator('.heatmap-grid li.cell-today').count(), 0);
        assert.match(await page.locator('.heatmap-range').innerText(), /^Showing /);
        await page.getByRole('button', { name: 'Later' }).click();
        await page.locator('.heatmap-grid li.cell-today').waitFor();
        assert.equal(await cells.first().getAttribute('data-date'), firstShown);

        // The daily chart has a value axis with labelled ticks.
        const ticks = await page.locator('.chart-values text').allTextContents();
        assert.ok(ticks.length >= 3 && ticks[0] === '0', `ticks: ${ticks.join(' ')}`);
      },
    );

    await t.test('finished and upcoming goals say so; a goal with nothing logged has an empty chart', async () => {
      const page = await register(browser, server, 'en-GB');
      const finished = await createGoal(page, {
        name: 'Push-ups',
        unit: 'push-ups',
        daily: 50,
        days: 30,
        start: addDays(today, -40),
      });
      await api(page, 'POST', `/api/goals/${finished.id}/sets/${addDays(today, -35)}`, { amount: 1000 });
      await api(page, 'POST', `/api/goals/${finished.id}/sets/${addDays(today, -34)}`, { amount: 420 });
      await open(page, finished, 'Push-ups');
      assert.equal(await factToday(page), 'Finished: 1,420 of 1,500 push-ups');
      await shot(page, 'en-finished');
      await assertNoAxeViolations(page, 'finished goal');

      const upcoming = await createGoal(page, {
        name: 'Read',
        unit: 'pages',
        daily: 20,
        days: 30,
        start: addDays(today, 3),
      });
      await open(page, upcoming, 'Read');
      assert.equal(await factToday(page), 'Starts in 3 days');
      assert.equal(await page.locator('.chart svg').count(), 0);
      assert.match(await page.locator('.chart-empty').innerText(), /Nothing logged yet/);
      await shot(page, 'en-upcoming');
      await assertNoAxeViolations(page, 'upcoming goal');
    });

    await t.test('German: "2,5" logs 2.5; 100× the target asks first; Escape closes the delete question', async () => {
      const page = await register(browser, server, 'de-DE');
      const goal = await createGoal(page, {
        name: 'Liegestütze',
        unit: 'Wiederholungen',
        daily: 10,
        days: 30,
        start: addDays(today, -2),
      });
      await open(page, goal, 'Liegestütze');
      const amount = page.locator(`#amount-${goal.id}`);
      await amount.fill('2,5');
      await page.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
      await page.locator('.fact-today', { hasText: '2,5 / 10 Wiederholungen heute' }).waitFor();
      // Shown at once; the outbox sends it a moment later.
      await assertEventually(() => loggedToday(page, goal), [2.5]);

      // 5000 is 500 daily targets: a question first, nothing logged until "Ja, eintragen".
      await amount.fill('5000');
      await page.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
      const question = page.getByRole('group', { name: /5\.000 Wiederholungen eintragen\?/ });
      await question.waitFor();
      assert.deepEqual(await loggedToday(page, goal), [2.5]);
      await shot(page, 'de-surprising');
      await page.getByRole('button', { name: 'Abbrechen' }).click();
      await question.waitFor({ state: 'detached' });
      // The field takes the focus back in the frame after the question goes (AmountForm's requestAnimationFrame).
      await page.waitForFunction((id) => document.activeElement?.id === id, `amount-${goal.id}`, { timeout: 2_000 });
      assert.deepEqual(await loggedToday(page, goal), [2.5]);
      await page.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
      await page.getByRole('button', { name: 'Ja, eintragen' }).click();
      await page.locator('.fact-today', { hasText: '5.002,5 / 10' }).waitFor();
      await assertEventually(() => loggedToday(page, goal), [2.5, 5000]);
      // An amount up to 100 targets logs at once.
      await amount.fill('1000');
      await page.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
      await page.locator('.fact-today', { hasText: '6.002,5 / 10' }).waitFor();
      // The ring's numbers stay inside its stroke (92 units of its 120 wide), however long they get.
      for (const text of await page.locator('svg.ring text').all()) {
        const width = await text.evaluate((element) => (element as SVGTextElement).getBBox().width);
        assert.ok(width > 0 && width <= 92, `"${await text.textContent()}" is ${width} units wide`);
      }
      await shot(page, 'de-goal');
      await assertNoAxeViolations(page, 'German goal page');

      await page.getByRole('button', { name: 'Ziel löschen' }).click();
      const confirm = page.locator('.confirm');
      await confirm.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Ja, löschen');
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.activeElement?.textContent === 'Ziel löschen');
      assert.equal((await api<Goal[]>(page, 'GET', '/api/goals')).length, 1, 'Escape deleted nothing');

      // A long German unit wraps inside the page instead of widening it.
      const long = await createGoal(page, {
        name: 'Rumpfstabilisationsübungen',
        unit: 'Rumpfstabilisationswiederholungen',
        daily: 12.5,
        days: 365,
        start: addDays(today, -100),
      });
      await api(page, 'POST', `/api/goals/${long.id}/sets/${today}`, { amount: 7.5 });
      await open(page, long, 'Rumpfstabilisationsübungen');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `the page is ${width} px wide`);
      await shot(page, 'de-long-unit');
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot(page, 'de-long-unit-dark');
      await page.emulateMedia({ colorScheme: 'light' });
    });

    await t.test('Polish: a new goal suggests a Polish unit; counts read right', async () => {
      const page = await register(browser, server, 'pl-PL');
      await page.evaluate(() => (location.hash = '#/new'));
      await page.locator('#unit').waitFor();
      assert.equal(await page.locator('#unit').inputValue(), 'razy');
      assert.ok(
        (
          await page
            .locator('#unit-suggestions option')
            .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))
        ).includes('powtórzenia'),
      );
      await shot(page, 'pl-new-goal');
      // A daily target typed in no digits is told how to write it (decision 0191); the decimal comma is taken.
      await page.locator('#name').fill('Woda');
      await page.locator('#daily').fill('1e6');
      await page.locator('main button[type=submit]').click();
      await page.locator('#daily-error', { hasText: 'Podaj ilość cyframi, np. 2,5.' }).waitFor();
      await page.locator('#daily').fill('2,5');
      await page.locator('#unit').fill('szklanki');
      await page.locator('main button[type=submit]').click();
      await page.getByRole('heading', { level: 1, name: 'Woda' }).waitFor();
      assert.equal(await factToday(page), '0 / 2,5 szklanki dziś');
      const water = (await api<(Goal & { daily: number })[]>(page, 'GET', '/api/goals')).find(
        (each) => each.daily === 2.5,
      );
      assert.ok(water, 'the goal was stored with the daily target 2.5');
      const goal = await createGoal(page, {
        name: 'Przysiady',
        unit: 'powtórzenia',
        daily: 25,
        days: 30,
        start: today,
      });
      await open(page, goal, 'Przysiady');
      await page.locator(`#amount-${goal.id}`).fill('1');
      await page.getByRole('button', { name: 'Dodaj', exact: true }).click();
      await page.locator('.toast', { hasText: 'Zapisano 1 powtórzenie.' }).waitFor();
      await page.locator('.fact-today', { hasText: '1 / 25 powtórzeń dziś' }).waitFor();
      await shot(page, 'pl-goal');
      await assertNoAxeViolations(page, 'Polish goal page');
    });

    await t.test('English: a count of "times" reads "Logged once."', async () => {
      const page = await register(browser, server, 'en-GB');
      const goal = await createGoal(page, { name: 'Stretch', unit: 'times', daily: 3, days: 10, start: today });
      await open(page, goal, 'Stretch');
      await page.getByRole('button', { name: /^\+1\b/ }).click();
      await page.locator('.toast', { hasText: 'Logged once.' }).waitFor();
    });
  },
);

test('the calendar at 360 px: the ✓, ½ and × marks keep clear of two-digit day numbers', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { server, browser } = await serverAndBrowser(t);
  const page = await register(browser, server, 'de');
  await page.setViewportSize({ width: 360, height: 800 });
  // The last 40 days met, partly done and missed in turn: every mark beside every kind of number.
  const sets: Record<string, number[]> = {};
  for (let back = 1; back <= 40; back++) sets[addDays(today, -back)] = [[8, 3, 0][back % 3]!];
  const goal = await api(page, 'POST', '/api/goals', {
    name: 'Seiten',
    unit: 'Seiten',
    daily: 8,
    days: 60,
    start: addDays(today, -40),
    sets,
  });
  await open(page, goal, 'Seiten');

  // A pseudo-element cannot be asked for its box, but its used offsets and size can: its box is the cell's padding
  // box moved by them. The number's box is its text's.
  const overlaps = () =>
    page.locator('.heatmap-grid li[data-date]').evaluateAll((cells) =>
      cells.flatMap((cell) => {
        const mark = getComputedStyle(cell, '::after');
        if (mark.content === 'none' || mark.content === 'normal') return [];
        const box = cell.getBoundingClientRect();
        const style = getComputedStyle(cell);
        const left = box.left + parseFloat(style.borderLeftWidth) + parseFloat(mark.left);
        const top = box.top + parseFloat(style.borderTopWidth) + parseFloat(mark.top);
        const right = left + parseFloat(mark.width);
        const bottom = top + parseFloat(mark.height);
        const number = document.createRange();
        number.selectNodeContents(cell.querySelector('[aria-hidden="true"]')!);
        const digits = number.getBoundingClientRect();
        const apart = digits.right <= left || digits.left >= right || digits.bottom <= top || digits.top >= bottom;
        return [{ day: cell.textContent!.match(/^\d+/)![0], apart }];
      }),
    );

  for (const width of [360, 390, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const marked = await overlaps();
    assert.ok(marked.filter((cell) => cell.day.length === 2).length >= 10, `${width} px: two-digit days marked`);
    assert.deepEqual(
      marked.filter((cell) => !cell.apart).map((cell) => cell.day),
      [],
      `${width} px: days whose number the mark covers`,
    );
    await page.locator('.heatmap').screenshot({ path: `${SCREENSHOTS}/de-calendar-${width}.png` });
  }
  for (const state of ['met', 'partly', 'missed'])
    assert.ok((await page.locator(`.heatmap-grid .cell-${state}`).count()) > 0, `a ${state} day is shown`);
});
