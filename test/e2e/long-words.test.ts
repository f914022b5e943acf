/**
 * Limits are visible and long words never widen a page (issue 8, decision 0084): at 390 px, with a 200-character
 * word in every text field (typed into each form and submitted, and stored as the longest value the contract
 * allows), no page is wider than the viewport, in German, English and Polish, and no quick amount breaks inside.
 * On a 320 px phone, German and Polish fields named by a placeholder show it whole and a goal's facts keep room.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LIMITS } from '../../src/common/limits.js';
import { addDays, localDateKey } from '../../src/common/progress.js';
import {
  apiFromPage,
  chromiumAvailable,
  cliInvite,
  launchBrowser,
  registerOnForm,
  type RunningServer,
  serverAndBrowser,
  startServer,
} from './support.js';

const word = (length: number) => 'Unbreakable'.repeat(Math.ceil(length / 11)).slice(0, length);
const WORD = word(200);
const PASSWORD = 'long words 123';
/** The longest address the e-mail rule allows without a break: 64 characters, @, a 63-character label. */
const longEmail = (prefix: string) => `${prefix}${'a'.repeat(64 - prefix.length)}@${'b'.repeat(63)}.example`;
const ADMIN = longEmail('admin');
const LOCALES = ['de', 'en', 'pl'] as const;

/** Fills every text input of the page with the long word and submits each form that has one. */
async function fillAndSubmit(page: Page): Promise<void> {
  await page.evaluate((text) => {
    const textual =
      'input:not([type=number]):not([type=date]):not([type=checkbox]):not([type=radio]):not([type=file])' +
      ':not([readonly]):not([disabled])';
    for (const form of document.querySelectorAll('form')) {
      const inputs = [...form.querySelectorAll<HTMLInputElement>(textual)];
      if (inputs.length === 0) continue;
      for (const input of inputs) {
        // Preact listens to `input` events; setting the value through the prototype setter is what typing does.
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
      form.requestSubmit();
    }
  }, WORD);
  await settle(page);
}

/** Waits until no form is busy and two frames have been drawn. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => ![...document.querySelectorAll<HTMLButtonElement>('button[type=submit]')].some((button) => button.disabled),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function assertFits(page: Page, where: string): Promise<void> {
  await settle(page);
  const size = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  if (size.scroll > size.inner)
    await page.screenshot({
      path: `test-results/screenshots/too-wide-${where.replace(/\W+/g, '-')}.png`,
      fullPage: true,
    });
  assert.ok(size.scroll <= size.inner, `${where}: the page is ${size.scroll} px wide in a ${size.inner} px viewport`);
}

/**
 * Every element `selector` finds shows its visible text on one line: the tops of its text's boxes, without a visually
 * hidden part and without icons beside the text, are all the same.
 */
async function assertOnOneLine(page: Page, selector: string, where: string, what: string): Promise<void> {
  const elements = page.locator(selector);
  assert.ok((await elements.count()) > 0, `${where}: no ${what}`);
  const broken = await elements.evaluateAll((all) =>
    all.flatMap((element) => {
      const tops = new Set<number>();
      const texts = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        if (!text.textContent?.trim() || text.parentElement?.closest('.visually-hidden')) continue;
        const range = document.createRange();
        range.selectNodeContents(text);
        for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
      }
      return tops.size > 1 ? [`${element.textContent} on ${tops.size} lines`] : [];
    }),
  );
  assert.deepEqual(broken, [], `${where}: ${what} broken across lines`);
}

/**
 * Every amount button (the quick amounts, Today's large log button) and every figure in running text shows its
 * amount on one line: a figure never breaks inside, however narrow the row.
 */
const assertAmountsWhole = (page: Page, where: string) =>
  assertOnOneLine(page, 'button.quick, button.today-log, .figure', where, 'amounts');

/** A goal's buttons on the order page stand in one row, however long its name: three rows each would fill a phone. */
async function assertButtonRowsWhole(page: Page, where: string): Promise<void> {
  const groups = page.locator('.arrange-buttons');
  assert.ok((await groups.count()) > 0, `${where}: no goal buttons`);
  const split = await groups.evaluateAll((all) =>
    all.filter((group) => new Set([...group.children].map((button) => button.getBoundingClientRect().top)).size > 1),
  );
  assert.equal(split.length, 0, `${where}: buttons on several rows for ${split.length} goal(s)`);
}

async function visit(page: Page, hash: string, heading: string): Promise<void> {
  await page.evaluate((target) => (window.location.hash = target), hash);
  await page
    .locator('main h1')
    .filter({ hasText: heading ? new RegExp(heading) : /./ })
    .first()
    .waitFor();
}

async function checkLocale(browser: Browser, server: RunningServer, locale: (typeof LOCALES)[number]): Promise<void> {
  const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const where = (name: string) => `${locale} ${name}`;

  await page.goto(`${server.baseUrl}/`);
  await page.locator('main h1').waitFor();
  await fillAndSubmit(page);
  await assertFits(page, where('login'));

  await visit(page, '#/forgot', '');
  await fillAndSubmit(page);
  await assertFits(page, where('forgot password'));

  await page.goto(`${server.baseUrl}/?reset_selector=${WORD}&reset_token=${WORD}`);
  await page.locator('main h1').waitFor();
  await fillAndSubmit(page);
  await assertFits(page, where('reset password'));

  // Registration: first everything too long (the name is refused next to its field), then the longest allowed.
  const email = locale === 'de' ? ADMIN : longEmail(locale);
  await page.goto(await cliInvite(server));
  await page.locator('#email').waitFor();
  await fillAndSubmit(page);
  await assertFits(page, where('register refused'));
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(PASSWORD);
  await page.locator('#name').fill(word(LIMITS.displayNameMax + 1));
  await page.locator('button[type=submit]').click();
  await page.locator('#name-error').waitFor();
  assert.match(
    await page.locator('#name-counter').innerText(),
    new RegExp(`${LIMITS.displayNameMax + 1}\\D+${LIMITS.displayNameMax}`),
  );
  await page.locator('#name').fill(word(LIMITS.displayNameMax));
  await page.locator('button[type=submit]').click();
  await page.locator('nav').waitFor();

  // The longest values the contract allows, stored, so every list shows them.
  const goal = await apiFromPage(page, 'POST', '/api/goals', {
    name: word(LIMITS.goalNameMax),
    unit: word(LIMITS.goalUnitMax),
    daily: 1e9 - 0.5,
    // The largest amount logged last, so Today's large button offers it: the widest figure it can show.
    sets: { [new Date().toISOString().slice(0, 10)]: [1e9 - 0.5] },
  });
  assert.equal(goal.status, 200);
  assert.equal((await apiFromPage(page, 'POST', '/api/invite', { note: word(LIMITS.inviteNoteMax) })).status, 200);

  const pages: Array<[string, string]> = [
    ['#/goals', 'goals'],
    ['#/arrange', 'order and archive'],
    [`#/goal/${goal.body.id}`, 'goal'],
    [`#/goal/${goal.body.id}/edit`, 'edit goal'],
    ['#/new', 'new goal'],
    ['#/invites', 'invites'],
    ['#/settings', 'settings'],
  ];
  for (const [hash, name] of pages) {
    await visit(page, hash, '');
    await assertFits(page, where(name));
    if (name === 'goal') await assertAmountsWhole(page, where(name));
    if (name === 'order and archive') await assertButtonRowsWhole(page, where(name));
    if (name === 'goals') {
      // The goal was stored behind the app's back (the API from the page): a reload shows it.
      await page.reload();
      await page.locator('.today-row button[aria-expanded]').first().click();
      await assertAmountsWhole(page, where('goals, other amounts'));
      await assertFits(page, where('goals, other amounts'));
    }
    await fillAndSubmit(page);
    await assertFits(page, where(`${name} after submitting long words`));
  }

  // The administrator's list, in this language: the admin (registered in German) switches language first.
  if (locale !== 'de') {
    await apiFromPage(page, 'POST', '/api/logout', {});
    assert.equal((await apiFromPage(page, 'POST', '/api/login', { email: ADMIN, password: PASSWORD })).status, 200);
    assert.equal((await apiFromPage(page, 'PATCH', '/api/me', { locale })).status, 200);
    await page.goto(`${server.baseUrl}/`);
  }
  await visit(page, '#/admin', '');
  await page.locator('.users').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), locale);
  await assertFits(page, where('admin users'));
  // The administrator's four tabs are all in view, none scrolled away past the edge.
  const tabs = await page
    .locator('nav a')
    .evaluateAll((links) => links.map((link) => [link.textContent, link.getBoundingClientRect().right]));
  assert.equal(tabs.length, 4);
  const width = await page.evaluate(() => window.innerWidth);
  assert.deepEqual(
    tabs.filter(([, right]) => Number(right) > width),
    [],
    `${where('admin users')}: tabs past the ${width} px edge`,
  );
  await context.close();
}

test(
  'no page is wider than a 390 px viewport with 200-character words, in de, en and pl',
  { timeout: 240_000 },
  async (t) => {
    if (!chromiumAvailable(t)) return;
    const server = await startServer(ADMIN);
    t.after(() => server.stop());
    const browser = await launchBrowser();
    t.after(() => browser.close());
    for (const locale of LOCALES) await checkLocale(browser, server, locale);
  },
);

/** Registers as `email` on the invite form the page shows, and waits for the logged-in app. */
/** Every field named by its placeholder alone shows it whole: cut, it no longer says what the field is for. */
async function assertPlaceholdersWhole(page: Page, where: string): Promise<void> {
  const fields = page.locator('input[placeholder]:visible');
  assert.ok((await fields.count()) > 0, `${where}: no placeholders`);
  const cut = await fields.evaluateAll((inputs) =>
    inputs.flatMap((input) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const needed = context.measureText((input as HTMLInputElement).placeholder).width;
      return needed > room ? [`"${(input as HTMLInputElement).placeholder}" needs ${needed} px, has ${room}`] : [];
    }),
  );
  assert.deepEqual(cut, [], `${where}: placeholders cut`);
}

test('on a 320 px phone in German and Polish (and at 200 % text), the header, placeholders and a goal’s facts keep their words whole', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { server, browser } = await serverAndBrowser(t);
  for (const locale of ['de', 'pl'] as const) {
    const context = await browser.newContext({ locale, viewport: { width: 320, height: 640 } });
    const page = await context.newPage();
    const where = (name: string) => `${locale} 320 px ${name}`;
    await page.goto(await cliInvite(server));
    await page.locator('#email').waitFor();
    // Beside the language picker the name broke into "Stead y", and its label into "Języ k".
    await assertOnOneLine(page, '.brand, .top .language label', where('register'), 'header words');
    await registerOnForm(page, `narrow-${locale}@example.com`, PASSWORD);
    // The same phone at 200 % text is 160 px wide: "Abmelden" broke into "Ab/mel/den", "Log out" a letter a line.
    await page.setViewportSize({ width: 160, height: 640 });
    await assertOnOneLine(page, '.brand, .top-bar > .link-button', where('at 200 % text'), 'header words');
    await page.setViewportSize({ width: 320, height: 640 });
    const goal = await apiFromPage(page, 'POST', '/api/goals', { name: 'Liegestütze', unit: 'Seiten', daily: 12.5 });
    assert.equal(goal.status, 200);

    await page.reload();
    await page.locator('.today-row button[aria-expanded]').click();
    await assertPlaceholdersWhole(page, where('goals, other amounts'));
    await assertFits(page, where('goals, other amounts'));

    await visit(page, `#/goal/${goal.body.id}`, 'Liegestütze');
    // Beside the ring on a phone this narrow, the facts broke every word or two ("Serie: 0 / Tage ·"): they go
    // beneath it instead, and a streak keeps its number and unit together.
    const factsWidth = await page.locator('.facts').evaluate((facts) => facts.getBoundingClientRect().width);
    assert.ok(factsWidth >= 8.5 * 16, `${where('goal')}: the facts are ${factsWidth} px wide`);
    await assertAmountsWhole(page, where('goal'));
    await assertFits(page, where('goal'));
    await context.close();
  }
});

/**
 * Every number in the text of `selector`'s elements is on one line and inside its element, whether or not it is
 * marked as a figure: the places where numbers broke had no mark to look for.
 */
async function assertNumbersWhole(page: Page, selector: string, where: string): Promise<void> {
  const elements = page.locator(selector);
  assert.ok((await elements.count()) > 0, `${where}: no ${selector}`);
  const broken = await elements.evaluateAll((all) =>
    all.flatMap((element) => {
      const found: string[] = [];
      const box = element.getBoundingClientRect();
      const texts = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        for (const number of text.textContent!.matchAll(/\d[\d.,\u00a0\u202f]*\d|\d/g)) {
          const range = document.createRange();
          range.setStart(text, number.index);
          range.setEnd(text, number.index + number[0].length);
          const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
          const lines = new Set(rects.map((rect) => Math.round(rect.top))).size;
          if (lines > 1) found.push(`"${number[0]}" on ${lines} lines`);
          const right = Math.max(...rects.map((rect) => rect.right));
          if (right > box.right + 0.5) found.push(`"${number[0]}" ends ${Math.round(right - box.right)} px outside`);
        }
      }
      return found;
    }),
  );
  assert.deepEqual(broken, [], `${where}: numbers broken or cut in ${selector}`);
}

/**
 * Asserts that no unit symbol (at most 4 letters after a no-break space, decision 0229) starts a line other than
 * its number's: the digit before the no-break space and the letter after it share a line. The two may be in
 * different text nodes (a Figure, then `UnitAfter`'s space and unit).
 */
async function assertUnitSymbolsWithNumbers(page: Page, where: string): Promise<void> {
  // No named functions inside: the test's compiler would wrap them in a helper the page does not have.
  const apart = await page.evaluate(() => {
    // Every character of the text in <main> with its node and offset, so a neighbour may be in the next node.
    const chars: Array<{ node: Text; offset: number; char: string }> = [];
    const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      [...node.textContent!].forEach((char, offset) => chars.push({ node: node as Text, offset, char }));
    const tops = chars.map(({ node, offset }) => {
      const range = document.createRange();
      range.setStart(node, offset);
      range.setEnd(node, offset + 1);
      return Math.round(range.getBoundingClientRect().top);
    });
    const found: string[] = [];
    let checked = 0;
    for (let index = 1; index < chars.length; index++) {
      if (chars[index]!.char !== '\u00a0' || !/\d/.test(chars[index - 1]!.char)) continue;
      let end = index + 1;
      while (end < chars.length && /\p{L}/u.test(chars[end]!.char)) end++;
      if (end === index + 1 || end - index - 1 > 4) continue;
      checked++;
      const unit = chars
        .slice(index + 1, end)
        .map(({ char }) => char)
        .join('');
      if (tops[index - 1] !== tops[index + 1]) found.push(`"${unit}" on another line than its number`);
    }
    return { found, checked };
  });
  assert.ok(apart.checked > 0, `${where}: no unit symbol after a number was shown`);
  assert.deepEqual(apart.found, [], `${where}: unit symbols cut from their numbers`);
}

test('at 360 px in German, the goal page never breaks a number: the summary’s total, a day’s entries and total', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { server, browser } = await serverAndBrowser(t);
  const context = await browser.newContext({ locale: 'de', viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  await page.goto(await cliInvite(server));
  await registerOnForm(page, 'zahlen@example.com', PASSWORD);

  // A total of 136 billion of 3.6 trillion, and on today entries of a billion and a thousand, with a long unit.
  const today = localDateKey(new Date());
  const sets: Record<string, number[]> = { [today]: [1e9 - 0.5, 1234.56, 7.5] };
  for (let back = 1; back <= 136; back++) sets[addDays(today, -back)] = [1e9 - 0.5];
  const goal = await apiFromPage(page, 'POST', '/api/goals', {
    name: 'Lesen',
    unit: 'Seiten im Buch über Unbreakablewordsforever',
    daily: 1e9 - 0.5,
    days: LIMITS.goalDaysMax,
    start: addDays(today, -140),
    sets,
  });
  assert.equal(goal.status, 200);
  await page.reload();
  await visit(page, `#/goal/${goal.body.id}`, 'Lesen');
  const where = 'de 360 px goal';
  await page.locator('.amount-list li').nth(2).waitFor();
  await page.screenshot({ path: 'test-results/screenshots/de-360-goal-numbers.png', fullPage: true });
  await assertNumbersWhole(page, '.facts li', where);
  await assertNumbersWhole(page, '.past-day h3', where);
  await assertNumbersWhole(page, '.amount-list li > span', where);
  await assertAmountsWhole(page, where);
  await assertFits(page, where);
  await context.close();
});

test('in German at 360 px and at 200 % text, Today’s upcoming and finished goals never break a number', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { server, browser } = await serverAndBrowser(t);
  const context = await browser.newContext({ locale: 'de', viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  await page.goto(await cliInvite(server));
  await registerOnForm(page, 'heute-zahlen@example.com', PASSWORD);

  // Finished: 3.703.703,5 of 45.061.622,5 pages; upcoming: starts in 1.200 days.
  const today = localDateKey(new Date());
  const finished = await apiFromPage(page, 'POST', '/api/goals', {
    name: 'Lesen',
    unit: 'Seiten',
    daily: 123_456.5,
    days: 365,
    start: addDays(today, -400),
    sets: { [addDays(today, -390)]: [1_234_567.75, 2_469_135.75] },
  });
  assert.equal(finished.status, 200);
  const upcoming = await apiFromPage(page, 'POST', '/api/goals', { name: 'Laufen', start: addDays(today, 1200) });
  assert.equal(upcoming.status, 200);
  await page.reload();
  // Both sections, once the server's list is in (the start may show the copy from before the goals were made).
  const sections = page.locator('.today-other summary');
  await sections.nth(1).waitFor();
  for (const section of await sections.all()) await section.click();
  await page.getByText('Beginnt in').waitFor();
  await assertNumbersWhole(page, '.today-other li', 'de 360 px Today');
  // 200 % text on this phone is the layout of a 180 px wide one.
  await page.setViewportSize({ width: 180, height: 800 });
  await page.screenshot({ path: 'test-results/screenshots/de-200-today-numbers.png', fullPage: true });
  await assertNumbersWhole(page, '.today-other li', 'de 200 % text Today');
  await assertFits(page, 'de 200 % text Today');
  await context.close();
});

/**
 * Every text the page shows and the font size it is drawn at: an SVG text's (a ring's, a chart's) as its picture is
 * scaled, and a form field's (its typed text and placeholder are no text nodes). Texts inside `leaveOut` are not.
 */
function textSizes(page: Page, leaveOut: string): Promise<Array<[string, number]>> {
  return page.evaluate((leaveOut) => {
    const elements: Array<[string, Element]> = [];
    const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let text = texts.nextNode(); text; text = texts.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(text);
      if (text.textContent!.trim() && range.getClientRects().length > 0)
        elements.push([text.textContent!, text.parentElement!]);
    }
    for (const field of document.querySelectorAll('input, select, textarea'))
      elements.push([`<${field.localName} ${field.id}>`, field]);
    return elements
      .filter(([, element]) => !element.closest(leaveOut))
      .map(([text, element]) => {
        const scale = element instanceof SVGGraphicsElement ? element.getScreenCTM()!.a : 1;
        // A heading, and Today's figure, may grow less (decision 0203): where the phone's layout turns narrow, they
        // take a smaller size that holds the language's words whole. Marked with "↓" for assertTextDoubles.
        const shown = element.closest('h1, h2, .fact-today') ? `\u2193${text}` : text;
        return [shown, parseFloat(getComputedStyle(element).fontSize) * scale] as [string, number];
      });
  }, leaveOut || ':not(*)');
}

/**
 * Sets the browser's default font size to 32 px from 16 (what Chrome's "Font size" setting changes, and what 1rem
 * and 1em in a media query are; the root element's font size would instead be the page's own choice, and would not
 * move media queries), and asserts that every text of the page, measured before and after, doubled.
 */
async function assertTextDoubles(context: BrowserContext, page: Page, where: string, leaveOut = ''): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const measure = async (px: number) => {
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: px } });
    await settle(page);
    return textSizes(page, leaveOut);
  };
  const normal = await measure(16);
  const large = await measure(32);
  await cdp.detach();
  assert.deepEqual(
    large.map(([text]) => text),
    normal.map(([text]) => text),
    `${where}: the same texts at both sizes`,
  );
  const unscaled = large.flatMap(([text, size], index) => {
    const before = normal[index]![1];
    // Marked by textSizes: a heading or Today's figure, which at the narrow layout grows at least 1.6 times.
    const doubles = text.startsWith('\u2193') ? size / before >= 1.6 : Math.abs(size / before - 2) < 0.01;
    return doubles ? [] : [`"${text.slice(0, 30)}": ${before} -> ${size} px`];
  });
  assert.deepEqual(unscaled, [], `${where}: texts that did not double`);
}

test(
  'with the browser’s text size at 200 % (its default font size, not a zoom), every text on Today and a goal page doubles (headings at least 1.6 times), and a 360 px phone in German and Polish holds it',
  { timeout: 120_000 },
  async (t) => {
    if (!chromiumAvailable(t)) return;
    const { server, browser } = await serverAndBrowser(t);
    const today = localDateKey(new Date());
    for (const locale of ['de', 'pl'] as const) {
      const context = await browser.newContext({ locale, viewport: { width: 360, height: 800 } });
      const page = await context.newPage();
      const where = (name: string) => `${locale} 360 px, 200 % text, ${name}`;
      await page.goto(await cliInvite(server));
      await registerOnForm(page, `gross-${locale}@example.com`, PASSWORD);
      const name = 'Donaudampfschifffahrtsgesellschaftskapitänsmütze tragen jeden Tag!';
      const long = {
        name,
        unit: 'Kapitänsmützen',
        daily: 12_345.678,
        start: addDays(today, -1),
        sets: { [addDays(today, -1)]: [5000] },
      };
      const made = await apiFromPage(page, 'POST', '/api/goals', long);
      assert.equal(made.status, 200);
      assert.equal(
        (await apiFromPage(page, 'POST', '/api/goals', { name: 'Woda', unit: 'l', daily: 0.3 })).status,
        200,
      );
      await page.reload();
      const rows = page.locator('.today-row');
      await rows.nth(1).waitFor();
      await rows.first().locator('button[aria-expanded]').click();
      // With a toast, which goes after 4 s.
      await rows.nth(1).locator('.today-log').click();
      await page.locator('.toast p').waitFor();
      await assertTextDoubles(context, page, where('Today'));
      await page.screenshot({ path: `test-results/screenshots/${locale}-font-200-today.png` });
      await assertAmountsWhole(page, where('Today'));
      await assertUnitSymbolsWithNumbers(page, where('Today'));
      await assertPlaceholdersWhole(page, where('Today'));
      await assertFits(page, where('Today'));

      await visit(page, `#/goal/${made.body.id}`, 'Donau');
      await page.locator('.chart-values').waitFor();
      // The reminder panel is a chunk of its own: measured while it still says "loading", the two sizes differ.
      await page.locator('#reminder-time').waitFor();
      // A calendar day's number is as large as its cell allows (min(0.8rem, 50cqi)): at 200 % the cell decides.
      await assertTextDoubles(context, page, where('goal'), '.heatmap');
      await page.screenshot({ path: `test-results/screenshots/${locale}-font-200-goal.png` });
      await assertAmountsWhole(page, where('goal'));
      await assertFits(page, where('goal'));
      await context.close();
    }
  },
);
