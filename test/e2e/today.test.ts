/**
 * Today on a phone (issue 9): compact rows, optimistic logging, keyboard focus, the offline queue across reloads,
 * two devices logging the same day, order and archive. Real server, real Chromium at 390×844.
 *
 * Logging requests are routed on the device's context, never on its page: the service worker's Background Sync may
 * send the outbox too (when the page is slow to answer its hand-over), and its requests pass by a page's routes.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, type TestContext, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { addDays, localDateKey } from '../../src/common/progress.js';
import { wallClockText } from '../../src/server/goals/start.js';
import {
  chromiumAvailable,
  cliInvite,
  launchBrowser,
  type RunningServer,
  startServer,
  assertNoAxeViolations,
  serviceWorkerSession,
  shellCached,
  assertEventually,
  explainedStep,
  pageTrail,
} from './support.js';

const PASSWORD = 'steady password 1';
const PHONE = { width: 390, height: 844 };
const SHOTS = '/tmp/steady-today';

let server: RunningServer;
let browser: Browser;

before(async () => {
  // Every second device logs in through the API: from one address, the file's logins would outrun the login
  // throttle (10 at once, then one every 30 s). Each login names an address of its own, as a proxy would.
  server = await startServer('nobody@example.com', { TRUST_PROXY: 'loopback' });
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

interface Device {
  context: BrowserContext;
  page: Page;
}

interface Goal {
  id: string;
  name: string;
  daily: number;
  days: number;
  sets: Record<string, number[]>;
}

let apiLogins = 0;

/** A new browser (context) logged in as `email`, registered with an operator invite when `register` is set. */
async function device(
  email: string,
  locale = 'en-GB',
  register = true,
  options: BrowserContextOptions = {},
): Promise<Device> {
  const context = await browser.newContext({ locale, viewport: PHONE, ...options });
  const headers = { origin: server.baseUrl };
  if (register) {
    const token = new URL(await cliInvite(server)).searchParams.get('invite');
    const answer = await context.request.post(`${server.baseUrl}/api/register`, {
      headers,
      data: { email, password: PASSWORD, token },
    });
    assert.equal(answer.status(), 200, await answer.text());
  } else {
    const answer = await context.request.post(`${server.baseUrl}/api/login`, {
      headers: { ...headers, 'x-forwarded-for': `192.0.2.${++apiLogins}` },
      data: { email, password: PASSWORD },
    });
    assert.equal(answer.status(), 200, await answer.text());
  }
  const page = await context.newPage();
  return { context, page };
}

async function api<T = unknown>(who: Device, method: string, path: string, data?: unknown): Promise<T> {
  const answer = await who.context.request.fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { origin: server.baseUrl },
    ...(data !== undefined && { data }),
  });
  assert.ok(answer.ok(), `${method} ${path}: ${answer.status()} ${await answer.text()}`);
  return (await answer.json()) as T;
}

const createGoal = (who: Device, body: Record<string, unknown>) =>
  api<{ id: string }>(who, 'POST', '/api/goals', { unit: 'reps', daily: 50, days: 30, ...body });

const today = () => localDateKey(new Date());

/** Every amount of the goal on the server, by date. */
async function setsOf(who: Device, goalId: string): Promise<Record<string, number[]>> {
  return (await api<Goal[]>(who, 'GET', '/api/goals')).find((goal) => goal.id === goalId)!.sets;
}

async function amountsToday(who: Device, goalId: string): Promise<number[]> {
  const goals = await api<{ id: string; sets: Record<string, number[]> }[]>(who, 'GET', '/api/goals');
  return goals.find((goal) => goal.id === goalId)?.sets[today()] ?? [];
}

/** Today's amounts on the server once they equal `expected`, or as they are after 10 s (then the assertion fails). */
async function assertAmountsToday(who: Device, goalId: string, expected: number[]): Promise<void> {
  await assertEventually(() => amountsToday(who, goalId), expected);
}

async function openToday(who: Device): Promise<void> {
  await who.page.goto(`${server.baseUrl}/#/goals`);
  await who.page.locator('.today-row, .empty').first().waitFor();
}

/** The row of the goal named `name` on Today. */
const row = (page: Page, name: string) =>
  page.locator('.today-row', { has: page.getByRole('heading', { name, exact: true }) });

/** Taps the log button of the goal's row; its label starts with the usual amount, e.g. `+1 glasses`. */
const tapLog = (page: Page, name: string, amount: string) =>
  row(page, name)
    .getByRole('button', { name: new RegExp(`^\\${amount}`) })
    .click();

/** A new device of `email` with a goal "Water" (8 glasses a day), on Today; closed when the test ends. */
async function waterToday(
  t: TestContext,
  email: string,
  options: BrowserContextOptions = {},
): Promise<{ who: Device; goal: { id: string } }> {
  const who = await device(email, 'en-GB', true, options);
  t.after(() => who.context.close());
  const goal = await createGoal(who, { name: 'Water', unit: 'glasses', daily: 8 });
  await openToday(who);
  return { who, goal };
}

/** Like `waterToday`, then on the goal's page; `facts` are the page's facts about the goal. */
async function waterGoalPage(t: TestContext, email: string) {
  const { who, goal } = await waterToday(t, email);
  await who.page.goto(`${server.baseUrl}/#/goal/${goal.id}`);
  return { who, goal, facts: who.page.locator('.facts') };
}

/** Reloads Today once the service worker controls it and keeps the app shell, so a later start works offline. */
async function reloadUnderServiceWorker(page: Page): Promise<void> {
  await shellCached(page);
  await page.reload();
  await row(page, 'Water').waitFor();
}

/**
 * Holds the device's requests to `url` (the page's and the service worker's) until the function it answers is
 * called; a request the app gave up on meanwhile is dropped.
 */
async function holdRequests(context: BrowserContext, url: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route(url, async (route) => {
    await released;
    await route.continue().catch(() => undefined);
  });
  return release;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

const LONG_NAMES: Record<string, string[]> = {
  de: [
    'Rückenmuskulaturkräftigungsübungen',
    'Liegestütze',
    'Fremdsprachenvokabelwiederholung',
    'Wasser trinken',
    'Spaziergang an der frischen Luft',
    'Meditationsminuten',
  ],
  pl: [
    'Przysiady',
    'Najdłuższewyrazygramatycznie',
    'Czytanie książek przed snem',
    'Pompki',
    'Powtarzanie słówek z hiszpańskiego',
    'Spacer',
  ],
  en: ['Push-ups', 'Squats', 'Reading', 'Water', 'Walk', 'Stretching'],
};

/** Six running goals named for the language, one not started yet, one finished. */
async function sixGoals(who: Device, lang: string): Promise<string[]> {
  const ids: string[] = [];
  const units: Record<string, string> = { de: 'Wiederholungen', pl: 'powtórzeń', en: 'reps' };
  for (const name of LONG_NAMES[lang]!) ids.push((await createGoal(who, { name, unit: units[lang] })).id);
  await createGoal(who, { name: lang === 'en' ? 'Marathon' : 'Zukunftsziel', start: '2099-01-01' });
  await createGoal(who, { name: lang === 'en' ? 'Old habit' : 'Alte Gewohnheit', start: '2020-01-01', days: 5 });
  return ids;
}

test('Today at 390×844: six running goals fit, sections collapsed, no overflow, axe clean; de and pl', async (t) => {
  if (!chromiumAvailable(t)) return;
  for (const [lang, locale] of [
    ['de', 'de-DE'],
    ['pl', 'pl-PL'],
    ['en', 'en-GB'],
  ] as const) {
    const who = await device(`fit-${lang}@example.com`, locale);
    t.after(() => who.context.close());
    await api(who, 'PATCH', '/api/me', { locale: lang });
    const ids = await sixGoals(who, lang);
    // One goal with an entry and one met, so the rings differ.
    await api(who, 'POST', `/api/goals/${ids[1]}/sets/${today()}`, { amount: 20 });
    await api(who, 'POST', `/api/goals/${ids[3]}/sets/${today()}`, { amount: 60 });
    await openToday(who);
    const { page } = who;
    assert.equal(await page.locator('.today-row').count(), 6);
    await shot(page, `today-${lang}`);

    const sixth = row(page, LONG_NAMES[lang]![5]!).locator('.today-log');
    const box = await sixth.boundingBox();
    assert.ok(box, 'the sixth log button is shown');
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `the sixth log button is at y=${box.y} on 844`);
    // Nothing wider than the screen, with long German and Polish words.
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= PHONE.width, `the page is ${scrollWidth}px wide`);
    // Upcoming and finished goals wait in collapsed sections.
    assert.equal(await page.locator('details.today-other').count(), 2);
    assert.equal(await page.locator('details.today-other[open]').count(), 0);

    if (lang === 'en') {
      await assertNoAxeViolations(page, 'Today');
      for (const section of await page.locator('details.today-other summary').all()) await section.click();
      await page.getByText('Starts in').waitFor();
      await row(page, 'Push-ups')
        .getByRole('button', { name: /^Other amounts/ })
        .click();
      await assertNoAxeViolations(page, 'Today with the sections and other amounts open');
      await shot(page, 'today-en-open');
      // The full goal page is one tap away: the goal's name.
      await row(page, 'Push-ups').getByRole('link', { name: 'Push-ups' }).click();
      await page.getByRole('heading', { level: 1, name: 'Push-ups', exact: true }).waitFor();
    }
  }
});

test('a tap changes the ring before the server answers; a refusal rolls back visibly', async (t) => {
  if (!chromiumAvailable(t)) return;
  const who = await device('optimist@example.com');
  t.after(() => who.context.close());
  const goal = await createGoal(who, { name: 'Push-ups' });
  await openToday(who);
  const { page } = who;
  const push = row(page, 'Push-ups');
  const ring = push.locator('.ring');
  const before = await ring.getAttribute('aria-label');

  const release = await holdRequests(who.context, '**/api/goals/*/sets/*');
  await push.getByRole('button', { name: /^\+25 reps/ }).click();
  // The answer is held back, yet the row already shows the entry, as pending.
  await push.getByText('25 / 50 reps').waitFor({ timeout: 2000 });
  assert.notEqual(await ring.getAttribute('aria-label'), before);
  await push.getByText('1 change not sent yet').waitFor();
  assert.deepEqual(await amountsToday(who, goal.id), []);
  release();
  await push.getByText('1 change not sent yet').waitFor({ state: 'detached' });
  assert.deepEqual(await amountsToday(who, goal.id), [25]);
  await who.context.unroute('**/api/goals/*/sets/*');

  // A refusal for good (here: the server says the amount is invalid): the row goes back and says why.
  await who.context.route('**/api/goals/*/sets/*', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'bad amount', code: 'invalid_amount', field: 'amount' }),
    }),
  );
  await push.getByRole('button', { name: /^\+25 reps/ }).click();
  await page.getByRole('alert').getByText('An entry for “Push-ups” was not saved').waitFor();
  await push.getByText('25 / 50 reps').waitFor();
  await who.context.unroute('**/api/goals/*/sets/*');
  assert.deepEqual(await amountsToday(who, goal.id), [25]);
});

test('keyboard: focus stays on the log button after logging and on undo after undo', async (t) => {
  if (!chromiumAvailable(t)) return;
  const who = await device('keys@example.com');
  t.after(() => who.context.close());
  const goal = await createGoal(who, { name: 'Squats', daily: 20 });
  await openToday(who);
  const { page } = who;
  const squats = row(page, 'Squats');
  const logButton = squats.getByRole('button', { name: /^\+10 reps/ });
  await logButton.focus();
  await page.keyboard.press('Enter');
  await squats.getByText('10 / 20 reps').waitFor();
  assert.ok(await logButton.evaluate((element) => element === document.activeElement), 'focus on the log button');
  await page.keyboard.press('Enter');
  await squats.getByText('20 / 20 reps').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.today-pending').length === 0);
  assert.deepEqual(await amountsToday(who, goal.id), [10, 10]);

  const undo = squats.getByRole('button', { name: /^Undo/ });
  await undo.focus();
  await page.keyboard.press('Enter');
  await squats.getByText('10 / 20 reps').waitFor();
  assert.ok(await undo.evaluate((element) => element === document.activeElement), 'focus on undo');
  await page.keyboard.press('Space');
  await squats.getByText('0 / 20 reps').waitFor();
  assert.ok(await undo.evaluate((element) => element === document.activeElement), 'focus on undo again');
  await page.waitForFunction(() => document.querySelectorAll('.today-pending').length === 0);
  assert.deepEqual(await amountsToday(who, goal.id), []);
});

test('the message after a tap may use the whole width and lets taps through to what it covers', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who } = await waterToday(t, 'toast@example.com');
  const { page } = who;
  await row(page, 'Water').locator('.today-log').click();
  await page.locator('.toast p').waitFor();
  const { width, viewport, hit } = await page.evaluate(() => {
    const toast = document.querySelector('.toast')!;
    const message = toast.querySelector('p')!.getBoundingClientRect();
    const under = document.elementFromPoint(message.left + message.width / 2, message.top + message.height / 2);
    return {
      width: toast.getBoundingClientRect().width,
      viewport: window.innerWidth,
      hit: under === null || toast.contains(under),
    };
  });
  // Placed at the middle, it had only the right half: a long message broke every two words on a phone.
  assert.equal(width, viewport - 32, 'the message has the whole width but the margins');
  // It covered the bottom row's undo for its 4 s, just when a mistaken tap wants undoing.
  assert.equal(hit, false, 'a tap on the message reaches the page beneath it');
});

test('a network that takes requests and never answers: the app opens from this device, and a log is sent once answers come', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'lie-fi@example.com');
  const { page, context } = who;
  await reloadUnderServiceWorker(page);

  // Connected, but nothing comes back (a train, a crowded cell): the page, its icons and the API are held.
  const answer = await holdRequests(context, '**/*');
  await page.reload({ waitUntil: 'commit' });
  // The service worker opens the cached page after its wait, the app its last known user and copy after /api/me's.
  const water = row(page, 'Water');
  await water.waitFor({ timeout: 20_000 });
  await tapLog(page, 'Water', '+1 glasses');
  await water.getByText('1 / 8 glasses').waitFor();
  await water.getByText('1 change not sent yet').waitFor();
  await page.getByText('Offline: showing what this device knows').waitFor({ timeout: 20_000 });

  answer();
  await water.getByText('1 change not sent yet').waitFor({ state: 'detached', timeout: 30_000 });
  await assertAmountsToday(who, goal.id, [1]);
});

test('a start opens Today from this device without waiting for /api/me; an ended session still leads to the login', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who } = await waterToday(t, 'quick-start@example.com');
  const { page, context } = who;
  await reloadUnderServiceWorker(page);

  const release = await holdRequests(context, '**/api/me');
  // Given up on at its deadline, /api/me would open the local copy too: Today must come before that.
  let meGivenUp = false;
  page.on('requestfailed', (request) => void (request.url().endsWith('/api/me') && (meGivenUp = true)));
  await page.reload();
  await row(page, 'Water').waitFor();
  assert.equal(meGivenUp, false, 'Today waited for /api/me to be given up on');
  release();

  // The session ends while the device is away; the next start shows the login (and no error).
  await context.clearCookies();
  await page.reload();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  assert.equal(await row(page, 'Water').count(), 0);
});

test('offline: 3 logs survive a reload as pending and reach the server exactly once when back online', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'offline@example.com');
  const { page, context } = who;
  await reloadUnderServiceWorker(page);

  await context.setOffline(true);
  const water = row(page, 'Water');
  for (let i = 0; i < 3; i++) await tapLog(page, 'Water', '+1 glasses');
  await water.getByText('3 / 8 glasses').waitFor();
  await water.getByText('3 changes not sent yet').waitFor();
  await untilQueued(page, 3);

  await page.reload();
  await row(page, 'Water').getByText('3 changes not sent yet').waitFor();
  await row(page, 'Water').getByText('3 / 8 glasses').waitFor();
  await page.getByText('Offline: showing what this device knows').waitFor();
  await shot(page, 'offline-pending-en');

  await context.setOffline(false);
  await row(page, 'Water').getByText('not sent yet').waitFor({ state: 'detached', timeout: 15_000 });
  assert.deepEqual(await amountsToday(who, goal.id), [1, 1, 1]);
  // Nothing is sent twice, even after another start.
  await page.reload();
  await row(page, 'Water').getByText('3 / 8 glasses').waitFor();
  assert.deepEqual(await amountsToday(who, goal.id), [1, 1, 1]);
});

/**
 * Waits until the outbox in IndexedDB holds `count` logs. A tap shows its entry as not sent at once, and its row
 * is written a moment later: a page left or reloaded before that takes the entry with it (under CI's load this
 * was the by-value Background Sync test's lost log).
 */
async function untilQueued(page: Page, count: number): Promise<void> {
  await assertEventually(async () => (await queuedLogs(page)).length, count, 'logs stored in the outbox');
}

/** The outbox's logs as IndexedDB holds them (decision 0095). */
async function queuedLogs(
  page: Page,
): Promise<Array<{ entry_id: string; goal_id: string; date: string; amount: number }>> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('steady');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const all = db.transaction('outbox', 'readonly').objectStore('outbox').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result.filter((op: { kind: string }) => op.kind === 'log'));
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

test('offline from the start: Settings open from what the service worker kept, never opened before', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who } = await waterToday(t, 'offline-settings@example.com');
  const { page, context } = who;
  await reloadUnderServiceWorker(page);
  // The chunks of the pages opened later (Settings, invites, the admin's list, the reminder panel, the goal form, the
  // arrange page) and the two small ones only they share (decision 0175) are named in index.html and kept.
  const later = await page
    .locator('link[rel=prefetch]')
    .evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
  const named = later.map((href) => new URL(href).pathname.replace(/-[\w-]{8}\.js$/, '')).sort();
  assert.deepEqual(
    named,
    [
      '/assets/ReminderPanel',
      '/assets/admin',
      '/assets/arrange',
      '/assets/goal-fields',
      '/assets/goal-form',
      '/assets/invites',
      '/assets/retry-key',
      '/assets/settings',
    ],
    later.join(),
  );
  await page.waitForFunction(
    async (hrefs) => (await Promise.all(hrefs.map((href) => caches.match(href)))).every(Boolean),
    later,
  );
  await context.setOffline(true);
  await page.reload();
  await row(page, 'Water').waitFor();
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  await page.getByLabel('Display name').waitFor();
  // The goal form and the arrange page open too; saving from them needs the server, as before they were chunks.
  await page.getByRole('link', { name: 'Goals', exact: true }).click();
  await page.getByRole('link', { name: 'New goal' }).click();
  await page.getByRole('heading', { name: 'New goal', level: 1 }).waitFor();
  await page.getByLabel('Daily target').waitFor();
  await page.getByRole('link', { name: 'Goals', exact: true }).click();
  await page.getByRole('link', { name: 'Order & archive' }).click();
  await page.getByRole('heading', { name: 'Order & archive', level: 1 }).waitFor();
  await page
    .getByRole('button', { name: /Archive/ })
    .first()
    .waitFor();
  // Invites need the server for their list: the page opens, says it cannot reach it, and tries again when asked.
  await page.getByRole('link', { name: 'Invites' }).click();
  await page.getByRole('heading', { name: 'Invites', level: 1 }).waitFor();
  const tryAgain = page.getByRole('button', { name: 'Try again' });
  await tryAgain.waitFor();
  await context.setOffline(false);
  await tryAgain.click();
  await page.getByText('You have not invited anyone yet.').waitFor();
});

test('logging out needs the server: offline it says so and nothing changes; unsent entries are sent first', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'logout-offline@example.com');
  const { page, context } = who;
  const logOut = page.getByRole('button', { name: 'Log out' });

  // Offline with an entry in the outbox: logging out would throw it away.
  await context.setOffline(true);
  await tapLog(page, 'Water', '+1 glasses');
  await row(page, 'Water').getByText('1 change not sent yet').waitFor();
  await logOut.click();
  await page.getByText('Not logged out: 1 change is not sent yet and would be lost.').waitFor();
  assert.equal(await row(page, 'Water').count(), 1, 'still logged in, on Today');

  // Back online the entry goes out; offline again, the logout cannot reach the server, which keeps the session.
  await context.setOffline(false);
  await row(page, 'Water').getByText('1 change not sent yet').waitFor({ state: 'detached' });
  await context.setOffline(true);
  await logOut.click();
  await page.getByText('Not logged out. The server could not be reached.').waitFor();
  await context.setOffline(false);
  await page.reload();
  await row(page, 'Water').waitFor();
  await assertAmountsToday(who, goal.id, [1]);

  // Online, an entry still on its way is sent before the session ends.
  const release = await holdRequests(context, '**/api/goals/*/sets/*');
  await tapLog(page, 'Water', '+1 glasses');
  await logOut.click();
  await page.waitForTimeout(300);
  assert.equal(await row(page, 'Water').count(), 1, 'the logout waits for the entry');
  release();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  const answer = await context.request.get(`${server.baseUrl}/api/me`);
  assert.equal(answer.status(), 401, 'the session has ended on the server');
  const other = await device('logout-offline@example.com', 'en-GB', false);
  t.after(() => other.context.close());
  await assertAmountsToday(other, goal.id, [1, 1]);
});

test('a goal made on another device opens by its link at once; an unknown one is called missing after the server is asked', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who } = await waterToday(t, 'other-device-goal@example.com');
  const { page } = who;
  // Made through the API, as another device would: this page's list does not hold it until it asks the server.
  const made = await createGoal(who, { name: 'Stretching', unit: 'minutes', daily: 10 });
  await page.evaluate((id) => (window.location.hash = `#/goal/${id}`), made.id);
  await page.getByRole('heading', { name: 'Stretching', level: 1 }).waitFor({ timeout: 5000 });
  assert.equal(await page.getByText('This goal does not exist (anymore).').count(), 0);

  await page.evaluate(() => (window.location.hash = '#/goal/999999'));
  await page.getByRole('heading', { name: 'This goal does not exist (anymore).', level: 1 }).waitFor();

  // When the server cannot be asked, that is said, not that the goal does not exist.
  const later = await createGoal(who, { name: 'Reading', unit: 'pages', daily: 10 });
  await who.context.route('**/api/goals', (route) => route.abort('internetdisconnected'));
  await page.evaluate((id) => (window.location.hash = `#/goal/${id}`), later.id);
  const tryAgain = page.getByRole('button', { name: 'Try again' });
  await tryAgain.waitFor();
  assert.equal(await page.getByText('This goal does not exist (anymore).').count(), 0);
  await who.context.unroute('**/api/goals');
  await tryAgain.click();
  await page.getByRole('heading', { name: 'Reading', level: 1 }).waitFor();
});

test("the administrator's list says when it cannot be loaded, and loads when asked to try again", async (t) => {
  if (!chromiumAvailable(t)) return;
  // This file's server names nobody@example.com its administrator.
  const admin = await device('nobody@example.com');
  t.after(() => admin.context.close());
  let answering = false;
  await admin.context.route('**/api/admin/users', (route) =>
    answering ? route.continue() : route.abort('connectionreset'),
  );
  await admin.page.goto(`${server.baseUrl}/#/admin`);
  const tryAgain = admin.page.getByRole('button', { name: 'Try again' });
  await tryAgain.waitFor();
  await admin.page.getByText('The server could not be reached').waitFor();

  answering = true;
  await tryAgain.click();
  await admin.page.getByRole('cell', { name: 'nobody@example.com' }).waitFor();
  assert.equal(await tryAgain.count(), 0, 'the failure is gone once the list is there');
});

test('a chunk the server does not have (a page open across a deployment): one reload, then the failure and a retry', async (t) => {
  if (!chromiumAvailable(t)) return;
  // Without the service worker, whose copy of the chunk would hide the server's answer.
  const { context, page } = await device('deployed@example.com', 'en-GB', true, { serviceWorkers: 'block' });
  t.after(() => context.close());
  let chunkGone = true;
  await page.route('**/assets/settings-*.js', (route) =>
    chunkGone ? route.fulfill({ status: 404, body: 'Not Found' }) : route.continue(),
  );
  await openToday({ context, page });
  let loads = 0;
  page.on('load', () => loads++);

  // The page loads again by itself (a new build would be there); once only, however often the chunk is missing.
  await page.getByRole('link', { name: 'Settings' }).click();
  const retry = page.getByRole('button', { name: 'Try again' });
  await retry.waitFor();
  // The new page can show the failure before its load event: a missing chunk is answered before the page's last
  // resource has come. Its load is awaited before the loads are counted.
  await page.waitForLoadState('load');
  assert.equal(loads, 1, 'the page loaded again once, and then did not loop');
  await page.getByText('The server could not be reached').waitFor();

  chunkGone = false;
  await retry.click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
});

test('a chunk that does not come (a first visit on a network that answers nothing): the failure after 10 s, Try again waits again, then the page when it comes', async (t) => {
  if (!chromiumAvailable(t)) return;
  // Without the service worker: it would have kept the chunk, and only a first visit comes before it.
  const { context, page } = await device('hung-chunk@example.com', 'en-GB', true, { serviceWorkers: 'block' });
  t.after(() => context.close());
  const release = await holdRequests(context, '**/assets/settings-*.js');
  await page.clock.install();
  await openToday({ context, page });

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.clock.runFor(9_000);
  const retry = page.getByRole('button', { name: 'Try again' });
  assert.equal(await retry.count(), 0, 'still waiting for the chunk');
  await page.clock.runFor(1_000);
  await retry.waitFor();
  await page.getByText('The server could not be reached').waitFor();

  // Try again waits once more, without a reload that would start the chunk's request over.
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await retry.click();
  await retry.waitFor({ state: 'detached' });
  await page.clock.runFor(10_000);
  await retry.waitFor();

  // The chunk comes after all: the page is shown without a reload.
  release();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  assert.equal(await retry.count(), 0);
  assert.equal(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded), true);
});

test('offline: a log found in the queue at start and sent by someone else meanwhile stays undone', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'undo-shared@example.com');
  const { page, context } = who;
  await reloadUnderServiceWorker(page);
  await context.setOffline(true);
  await tapLog(page, 'Water', '+1 glasses');
  await row(page, 'Water').getByText('1 change not sent yet').waitFor();
  // A new start finds the log in the outbox, where the service worker (or another tab) may be sending it: here it
  // reaches the server through another connection while this page is offline (decision 0132).
  await page.reload();
  await row(page, 'Water').getByText('1 change not sent yet').waitFor();
  const [log] = await queuedLogs(page);
  assert.ok(log, 'the log is queued');
  await api(who, 'POST', `/api/goals/${goal.id}/sets/${log.date}`, { amount: log.amount, entry_id: log.entry_id });
  await assertAmountsToday(who, goal.id, [1]);

  await row(page, 'Water').getByRole('button', { name: /^Undo/ }).click();
  await row(page, 'Water').getByText('0 / 8 glasses').waitFor();
  await context.setOffline(false);
  await row(page, 'Water')
    .getByText(/not sent yet/)
    .waitFor({ state: 'detached', timeout: 15_000 });
  // Dropped from the queue, the log the other sender delivered would have stayed: [1].
  await assertAmountsToday(who, goal.id, []);
  await page.reload();
  await row(page, 'Water').getByText('0 / 8 glasses').waitFor();
});

test('after a reload, undo takes back the entries this device logged from the newest, on Today and the goal page', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'undo-after-reload@example.com');
  const { page } = who;
  const water = row(page, 'Water');
  await water.getByRole('button', { name: /^Other amounts/ }).click();
  for (const amount of ['1', '2', '3', '4', '5', '6']) {
    await water.getByLabel('Other amount (glasses)').fill(amount);
    await water.getByRole('button', { name: 'Add', exact: true }).click();
  }
  await assertAmountsToday(who, goal.id, [1, 2, 3, 4, 5, 6]);
  await water.getByText('not sent yet').waitFor({ state: 'detached' });

  // The new start reads this device's entries from IndexedDB, where they are kept by their ids (decision 0189).
  await page.reload();
  await water.getByText('21 / 8 glasses').waitFor();
  for (const left of [
    [1, 2, 3, 4, 5],
    [1, 2, 3, 4],
    [1, 2, 3],
  ]) {
    await water.getByRole('button', { name: /^Undo/ }).click();
    await assertAmountsToday(who, goal.id, left);
  }
  await page.goto(`${server.baseUrl}/#/goal/${goal.id}`);
  await page.getByRole('button', { name: /Undo last entry \(3\)/ }).click();
  await page.getByRole('button', { name: /Undo last entry \(2\)/ }).click();
  await assertAmountsToday(who, goal.id, [1]);
});

test("undo after an update: entries the older version kept, without their order, are taken back by the day's last value", async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'undo-older-rows@example.com');
  const { page } = who;
  const me = await api<{ id: number }>(who, 'GET', '/api/me');
  // Logged by the older version, whose ids were bare UUIDs: these sort against the order of logging.
  const older = [
    { amount: 1, entry_id: 'ffffffff-0000-4000-8000-000000000000' },
    { amount: 2, entry_id: '88888888-0000-4000-8000-000000000000' },
    { amount: 3, entry_id: '00000000-0000-4000-8000-000000000000' },
  ];
  const rows = older.map((entry) => ({ ...entry, user_id: me.id, goal_id: goal.id, date: today(), removed: false }));
  for (const entry of older) await api(who, 'POST', `/api/goals/${goal.id}/sets/${today()}`, entry);
  await page.evaluate(
    (kept) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open('steady');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const transaction = request.result.transaction('mine', 'readwrite');
          for (const row of kept) transaction.objectStore('mine').put(row);
          transaction.oncomplete = () => {
            request.result.close();
            resolve();
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    rows,
  );

  await page.reload();
  await row(page, 'Water').getByText('6 / 8 glasses').waitFor();
  await row(page, 'Water').getByRole('button', { name: /^Undo/ }).click();
  await assertAmountsToday(who, goal.id, [1, 2]);
});

test('the pending note counts the changes the server will see: a queued log and its own undo cancel out', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'pending-undo@example.com');
  const { page, context } = who;
  const water = row(page, 'Water');
  await tapLog(page, 'Water', '+1 glasses');
  await assertAmountsToday(who, goal.id, [1]);
  await reloadUnderServiceWorker(page);

  // Offline, the undo of a sent entry is a change still to be sent; two logs are two more.
  await context.setOffline(true);
  await water.getByRole('button', { name: /^Undo/ }).click();
  await water.getByText('1 change not sent yet').waitFor();
  await tapLog(page, 'Water', '+1 glasses');
  await tapLog(page, 'Water', '+1 glasses');
  await water.getByText('3 changes not sent yet').waitFor();
  await untilQueued(page, 2);

  // After a new start the logs are found in the outbox, so each undo queues a removal by the log's id.
  await page.reload();
  await water.getByText('2 / 8 glasses').waitFor();
  await water.getByRole('button', { name: /^Undo/ }).click();
  await water.getByText('2 changes not sent yet').waitFor();
  await water.getByRole('button', { name: /^Undo/ }).click();
  await water.getByText('0 / 8 glasses').waitFor();
  await water.getByText('1 change not sent yet').waitFor();
  // Logging out would lose that one change, not the five items queued.
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByText('Not logged out: 1 change is not sent yet and would be lost.').waitFor();

  await context.setOffline(false);
  await water.getByText('not sent yet').waitFor({ state: 'detached', timeout: 15_000 });
  await assertAmountsToday(who, goal.id, []);
});

test('Today left in view shows within a minute what another device logged, without a reload', async (t) => {
  if (!chromiumAvailable(t)) return;
  const who = await device('counter-tablet@example.com');
  t.after(() => who.context.close());
  const { page } = who;
  const goal = await createGoal(who, { name: 'Water', unit: 'glasses', daily: 8 });
  await page.clock.install();
  await openToday(who);
  const water = row(page, 'Water');
  await water.getByText('0 / 8 glasses').waitFor();

  // The phone logs 3; the tablet stays in view, untouched.
  await api(who, 'POST', `/api/goals/${goal.id}/sets/${today()}`, { amount: 3 });
  await page.clock.runFor(30_000);
  assert.equal(await water.getByText('3 / 8 glasses').count(), 0, 'asked again only once a minute');
  await page.clock.runFor(30_000);
  await water.getByText('3 / 8 glasses').waitFor();
});

test('two devices: A logs 3 offline, B logs 2 online; A back online: 5 everywhere, none doubled', async (t) => {
  if (!chromiumAvailable(t)) return;
  const a = await device('twice@example.com');
  t.after(() => a.context.close());
  const goal = await createGoal(a, { name: 'Walk', unit: 'min', daily: 60 });
  const b = await device('twice@example.com', 'en-GB', false);
  t.after(() => b.context.close());
  await openToday(a);
  await openToday(b);

  await a.context.setOffline(true);
  for (let i = 0; i < 3; i++) await tapLog(a.page, 'Walk', '+25 min');
  await row(a.page, 'Walk').getByText('3 changes not sent yet').waitFor();
  // The undo of an change not sent yet only drops it from the queue; one more makes it 3 again.
  await row(a.page, 'Walk').getByRole('button', { name: /^Undo/ }).click();
  await row(a.page, 'Walk').getByText('2 changes not sent yet').waitFor();
  await tapLog(a.page, 'Walk', '+25 min');
  await row(a.page, 'Walk').getByText('3 changes not sent yet').waitFor();

  for (let i = 0; i < 2; i++) await tapLog(b.page, 'Walk', '+25 min');
  await row(b.page, 'Walk').getByText('50 / 60 min').waitFor();
  // Sent in the background: the server has both once B's queue is empty.
  await assertAmountsToday(b, goal.id, [25, 25]);

  await a.context.setOffline(false);
  await row(a.page, 'Walk').getByText('125 / 60 min').waitFor({ timeout: 15_000 });
  await row(a.page, 'Walk').getByText('not sent yet').waitFor({ state: 'detached' });
  await assertAmountsToday(a, goal.id, [25, 25, 25, 25, 25]);
  await b.page.reload();
  await row(b.page, 'Walk').getByText('125 / 60 min').waitFor();
  await a.page.reload();
  await row(a.page, 'Walk').getByText('125 / 60 min').waitFor();
  assert.deepEqual(await amountsToday(b, goal.id), [25, 25, 25, 25, 25]);
});

test('a goal deleted on another device: its queued entries are dropped with a notice, no error loop', async (t) => {
  if (!chromiumAvailable(t)) return;
  const a = await device('gone@example.com');
  t.after(() => a.context.close());
  const goal = await createGoal(a, { name: 'Read', unit: 'pages', daily: 20 });
  await createGoal(a, { name: 'Stay', unit: 'pages', daily: 20 });
  await openToday(a);
  // Under the service worker from the start: a page it claims midway has its requests reported on the worker's
  // side, not the page's (a CI run counted 0 requests here), and a page it does not control yet is no window to
  // hand a sync over to, so the worker would send the queue itself as well.
  await shellCached(a.page);
  await a.page.reload();
  await row(a.page, 'Read').waitFor();
  await a.context.setOffline(true);
  await tapLog(a.page, 'Read', '+10 pages');
  await tapLog(a.page, 'Read', '+10 pages');
  await row(a.page, 'Read').getByText('2 changes not sent yet').waitFor();
  await api(a, 'DELETE', `/api/goals/${goal.id}`);
  // Counted as the server answered them: a retry the backoff timer starts while the context is still going online
  // fails without reaching the server (a CI run counted it as a second request).
  const answered: string[] = [];
  a.context.on('requestfinished', (request) => {
    if (request.url().includes('/sets/'))
      answered.push(`${request.serviceWorker() ? 'worker' : 'page'} ${request.url()}`);
  });
  await a.context.setOffline(false);
  await a.page.getByRole('alert').getByText('“Read” was deleted on another device').waitFor({ timeout: 15_000 });
  await row(a.page, 'Read').waitFor({ state: 'detached' });
  await a.page.waitForTimeout(1500);
  assert.equal(
    answered.length,
    1,
    `one refused request, then the rest of the goal’s queue is dropped: ${answered.join(', ')}`,
  );
  await a.page.getByRole('button', { name: 'Dismiss' }).click();
  assert.equal(await a.page.getByRole('alert').count(), 0);
});

test('order and archive through the UI, by keyboard; Archive restores; axe clean', async (t) => {
  if (!chromiumAvailable(t)) return;
  const who = await device('arranger@example.com');
  t.after(() => who.context.close());
  for (const name of ['First', 'Second', 'Third']) await createGoal(who, { name });
  await openToday(who);
  const { page } = who;
  const names = async () => page.locator('.today-row h2').allInnerTexts();
  assert.deepEqual(await names(), ['First', 'Second', 'Third']);

  await page.getByRole('link', { name: 'Order & archive' }).click();
  await page.getByRole('heading', { name: 'Order & archive', level: 1 }).waitFor();
  const down = page.getByRole('button', { name: 'Move down – First' });
  await down.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.arrange-row')?.textContent?.startsWith('Second'));
  // The focus follows the moved goal.
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), '↓ Move down – First');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('.arrange-row')[2]?.textContent?.startsWith('First'));
  await page.getByRole('button', { name: 'Archive – Second' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('section', { hasText: 'Archive' }).getByRole('button', { name: 'Restore – Second' }).waitFor();
  await shot(page, 'arrange-en');
  await assertNoAxeViolations(page, 'Order & archive');

  const layout = await api<{ order: string[]; archived: string[] }>(who, 'GET', '/api/goal-layout');
  const goals = await api<{ id: string; name: string }[]>(who, 'GET', '/api/goals');
  const nameOf = (id: string) => goals.find((goal) => goal.id === id)?.name;
  assert.deepEqual(layout.order.map(nameOf), ['Second', 'Third', 'First']);
  assert.deepEqual(layout.archived.map(nameOf), ['Second']);

  // Another device shows the same order, without the archived goal.
  const other = await device('arranger@example.com', 'en-GB', false);
  t.after(() => other.context.close());
  await openToday(other);
  assert.deepEqual(await other.page.locator('.today-row h2').allInnerTexts(), ['Third', 'First']);

  await page.getByRole('button', { name: 'Restore – Second' }).click();
  await page.getByText('No archived goals.').waitFor();
  await page.getByRole('link', { name: 'Back to goals' }).click();
  await page.locator('.today-row').nth(2).waitFor();
  assert.deepEqual(await names(), ['Second', 'Third', 'First']);
});

/** How many records each store of the offline database holds (decision 0095). */
async function offlineRecords(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const request = indexedDB.open('steady');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const names = [...db.objectStoreNames];
          const transaction = db.transaction(names, 'readonly');
          const counts: Record<string, number> = {};
          for (const name of names) {
            const count = transaction.objectStore(name).count();
            count.onsuccess = () => (counts[name] = count.result);
          }
          transaction.oncomplete = () => {
            db.close();
            resolve(counts);
          };
        };
      }),
  );
}

test('logout clears the local copy: nothing of the user stays on the device', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'leaving@example.com');
  const { page } = who;
  // A log sent: the goal copy and the record of this device's own entries hold something. (An entry still unsent
  // stops the logout instead: decision 0150, tested above.)
  await tapLog(page, 'Water', '+1 glasses');
  await assertAmountsToday(who, goal.id, [1]);
  await row(page, 'Water').getByText('1 change not sent yet').waitFor({ state: 'detached' });
  const before = await offlineRecords(page);
  assert.ok((before.copy ?? 0) > 0 && (before.mine ?? 0) > 0, `kept: ${JSON.stringify(before)}`);

  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  assert.deepEqual(await offlineRecords(page), { copy: 0, mine: 0, outbox: 0 });
});

/** From now on the device's logs fail on the network: a tap on `page` leaves its entry of Water in the outbox. */
async function logThatStaysQueued(context: BrowserContext, page: Page, trail = pageTrail(page)): Promise<void> {
  await context.route('**/api/goals/*/sets/**', (route) => {
    trail.note(`aborted ${route.request().method()} ${route.request().url()}`);
    return route.abort('internetdisconnected');
  });
  await tapLog(page, 'Water', '+1 glasses');
  trail.note('tapped +1 glasses');
  await explainedStep(page, trail, () => row(page, 'Water').getByText('1 change not sent yet').waitFor());
}

/**
 * Another tab of the device opens Today, logs Water while the network fails its logs, and is closed: its entry is in
 * the shared outbox only.
 */
async function queueInAnotherTabAndClose(context: BrowserContext): Promise<void> {
  const other = await context.newPage();
  const trail = pageTrail(other);
  await other.goto(`${server.baseUrl}/#/goals`);
  await logThatStaysQueued(context, other, trail);
  await other.close();
}

test('deleting the account with an entry still queued empties the device: the entry can never be sent', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who } = await waterToday(t, 'deleting-queued@example.com');
  const { page, context } = who;
  await logThatStaysQueued(context, page);

  await page.goto(`${server.baseUrl}/#/settings`);
  const section = page.locator('form', { has: page.getByRole('heading', { name: 'Delete account' }) });
  await section.getByLabel('Your password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Delete account' }).click();
  await section.getByRole('button', { name: 'Yes, delete my account' }).click();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  assert.deepEqual(await offlineRecords(page), { copy: 0, mine: 0, outbox: 0 });
  assert.equal(await page.getByText('Not logged out').count(), 0);
});

test("logging out waits for an entry another tab of the same person queued, which this tab's queue does not hold", async (t) => {
  if (!chromiumAvailable(t)) return;
  // No service worker: the second tab would be under it from its start, and Playwright's documentation warns that its
  // routes may miss requests of a page under a worker and advises blocking workers when routing. The test is about
  // the tabs and their shared outbox, which need no worker.
  const { who } = await waterToday(t, 'two-tabs-logout@example.com', { serviceWorkers: 'block' });
  const { page, context } = who;
  await queueInAnotherTabAndClose(context);

  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByText('Not logged out: 1 change is not sent yet and would be lost.').waitFor();
  assert.equal((await offlineRecords(page)).outbox, 1);
});

test('logging out sends first the entry a closed tab left queued, with no other event to wake this tab', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'closed-tab-logout@example.com', { serviceWorkers: 'block' });
  const { page, context } = who;
  await queueInAnotherTabAndClose(context);
  // The network is back; this tab saw neither the other tab close nor itself come back into view (two windows side
  // by side): only the logout finds the entry.
  await context.unrouteAll();

  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  assert.equal(await page.getByText('Not logged out').count(), 0);
  assert.deepEqual(await offlineRecords(page), { copy: 0, mine: 0, outbox: 0 });
  const reader = await device('closed-tab-logout@example.com', 'en-GB', false);
  t.after(() => reader.context.close());
  await assertAmountsToday(reader, goal.id, [1]);
});

test("logging out on a shared browser keeps another person's queue, whose session ended before it was sent", async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who: anna, goal } = await waterToday(t, 'shared-anna@example.com');
  const { page, context } = anna;
  await logThatStaysQueued(context, page);
  // Anna's session ends elsewhere (expired, or ended from another device): her next send is refused, the login shows
  // and her entry waits for her next login.
  await context.clearCookies();
  await context.unrouteAll();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await (await device('shared-ben@example.com')).context.close();

  const logInHere = async (email: string) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  };
  await logInHere('shared-ben@example.com');
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  assert.equal((await offlineRecords(page)).outbox, 1, "Ben's logout kept Anna's queued entry");

  await logInHere('shared-anna@example.com');
  await row(page, 'Water').waitFor();
  await assertAmountsToday(anna, goal.id, [1]);
});

/** The account of `who` deleted on another device (its own browser, logged in with the password). */
async function deleteOnAnotherDevice(t: TestContext, email: string): Promise<void> {
  const other = await device(email, 'en-GB', false);
  t.after(() => other.context.close());
  await api(other, 'DELETE', '/api/me', { password: PASSWORD });
}

const ACCOUNT_DELETED = 'This account was deleted. Its data is gone from this device too.';

test("an account deleted on another device: this device's next tap shows the login with the reason and keeps nothing of it", async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who } = await waterToday(t, 'deleted-elsewhere@example.com');
  const { page, context } = who;
  await logThatStaysQueued(context, page);
  await deleteOnAnotherDevice(t, 'deleted-elsewhere@example.com');
  await context.unrouteAll();

  await tapLog(page, 'Water', '+1 glasses');
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await page.getByText(ACCOUNT_DELETED).waitFor();
  await assertEventually(() => offlineRecords(page), { copy: 0, mine: 0, outbox: 0 });
  await page.reload();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  assert.deepEqual(await offlineRecords(page), { copy: 0, mine: 0, outbox: 0 });
});

test('an account deleted while this device was closed: its next start shows the login with the reason and keeps nothing of it', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who } = await waterToday(t, 'deleted-while-closed@example.com');
  const { page, context } = who;
  await logThatStaysQueued(context, page);
  await page.goto('about:blank');
  await context.unrouteAll();
  await deleteOnAnotherDevice(t, 'deleted-while-closed@example.com');

  await page.goto(`${server.baseUrl}/#/goals`);
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await page.getByText(ACCOUNT_DELETED).waitFor();
  await assertEventually(() => offlineRecords(page), { copy: 0, mine: 0, outbox: 0 });
});

test('two devices: saving the edit form sends only what was changed there, and keeps what the other device changed', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who: phone, goal } = await waterToday(t, 'edit-two-devices@example.com');
  const { page } = phone;
  await page.goto(`${server.baseUrl}/#/goal/${goal.id}/edit`);
  await page.getByLabel('What do you want to do?').fill('Water, daily');
  const laptop = await device('edit-two-devices@example.com', 'en-GB', false);
  t.after(() => laptop.context.close());
  await api(laptop, 'PATCH', `/api/goals/${goal.id}`, { daily: 5, days: 60 });

  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('heading', { name: 'Water, daily', level: 1 }).waitFor();
  const saved = (await api<Goal[]>(phone, 'GET', '/api/goals')).find((each) => each.id === goal.id);
  assert.deepEqual(
    { name: saved?.name, daily: saved?.daily, days: saved?.days },
    { name: 'Water, daily', daily: 5, days: 60 },
  );
  // And the page shows the goal as the server has it, not as the form opened.
  await page.locator('.facts').getByText('0 / 5 glasses today').waitFor();
});

/** The edit form's fields of the goal: what the person reads there, and the hint under each, if any. */
async function editFields(page: Page): Promise<Record<string, [string, string | null]>> {
  const fields: Record<string, [string, string | null]> = {};
  for (const [key, label] of [
    ['name', 'What do you want to do?'],
    ['daily', 'Daily target'],
    ['unit', 'Unit'],
    ['days', 'Number of days'],
  ]) {
    const hint = page.locator(`#${key}-hint`);
    fields[key!] = [await page.getByLabel(label!).inputValue(), (await hint.count()) ? await hint.innerText() : null];
  }
  return fields;
}

test('two devices: the open edit form takes the other device’s change into the fields left as they were', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who: phone, goal } = await waterGoalPage(t, 'edit-fresh@example.com');
  const { page, context } = phone;
  await page.getByRole('link', { name: 'Edit' }).click();
  // A space left at the end, as a phone's word suggestions leave one: saved without it.
  await page.getByLabel('What do you want to do?').fill('Water, daily ');
  await page.getByLabel('Number of days').fill('45');
  const laptop = await device('edit-fresh@example.com', 'en-GB', false);
  t.after(() => laptop.context.close());
  await api(laptop, 'PATCH', `/api/goals/${goal.id}`, { daily: 12, days: 60 });

  // Back online, the app asks for the goals again (as when it comes back into view, and once a minute).
  await context.setOffline(true);
  await context.setOffline(false);
  await assertEventually(() => editFields(page), {
    name: ['Water, daily ', 'For example: push-ups, read, walk.'],
    daily: ['12', null],
    unit: ['glasses', null],
    days: ['45', 'Changed on another device meanwhile: 60'],
  });
  // The goal as this save changed it is no change of another device's: no hint may say so while the form is left.
  await page.evaluate(() => {
    const hints: string[] = [];
    Object.assign(window, { hintsAfterSave: hints });
    new MutationObserver(() =>
      document.querySelectorAll<HTMLElement>('.hint').forEach((hint) => hints.push(hint.innerText)),
    ).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('heading', { name: 'Water, daily', level: 1 }).waitFor();
  const saved = (await api<Goal[]>(phone, 'GET', '/api/goals')).find((each) => each.id === goal.id);
  assert.deepEqual(
    { name: saved?.name, daily: saved?.daily, days: saved?.days },
    { name: 'Water, daily', daily: 12, days: 45 },
  );
  await page.locator('.facts').getByText('0 / 12 glasses today').waitFor();
  const hintsAfterSave = await page.evaluate(() => (window as unknown as { hintsAfterSave: string[] }).hintsAfterSave);
  assert.deepEqual(
    hintsAfterSave.filter((hint) => hint.includes('Water, daily')),
    [],
    'the name this form saved is called a change of another device',
  );
});

test('two devices: the edit form opens with what the other device changed since the goal page loaded', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who: phone, goal, facts } = await waterGoalPage(t, 'edit-opens-fresh@example.com');
  const { page } = phone;
  await facts.getByText('0 / 8 glasses today').waitFor();
  const laptop = await device('edit-opens-fresh@example.com', 'en-GB', false);
  t.after(() => laptop.context.close());
  await api(laptop, 'PATCH', `/api/goals/${goal.id}`, { name: 'Tea', daily: 4 });

  await page.getByRole('link', { name: 'Edit' }).click();
  await assertEventually(() => editFields(page), {
    name: ['Tea', 'For example: push-ups, read, walk.'],
    daily: ['4', null],
    unit: ['glasses', null],
    days: ['30', null],
  });
});

const DELETED_ELSEWHERE =
  'This goal was deleted on another device. What you typed is still here: save it as a new goal, or leave.';

/** Water's edit form open on the phone with a new name and number of days typed, and the goal deleted on a laptop. */
async function editWhileDeletedElsewhere(t: TestContext, email: string) {
  const { who: phone, goal } = await waterGoalPage(t, email);
  const { page } = phone;
  // Once seen failing in CI (the form's name field never came); a next failure says what the page showed.
  const trail = pageTrail(page);
  await page.getByRole('link', { name: 'Edit' }).click();
  await explainedStep(page, trail, () => page.getByLabel('What do you want to do?').fill('Sparkling water'));
  await page.getByLabel('Number of days').fill('45');
  const laptop = await device(email, 'en-GB', false);
  t.after(() => laptop.context.close());
  await api(laptop, 'DELETE', `/api/goals/${goal.id}`);
  return { phone, goal };
}

test('two devices: a goal deleted elsewhere keeps its open edit form, which saves the input as a new goal', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { phone, goal } = await editWhileDeletedElsewhere(t, 'edit-deleted@example.com');
  const { page, context } = phone;
  // Back online, the app asks for the goals again (as when it comes back into view, and once a minute).
  await context.setOffline(true);
  await context.setOffline(false);
  await page.getByRole('alert').getByText(DELETED_ELSEWHERE).waitFor();
  await shot(page, 'edit-deleted-elsewhere');
  await assertNoAxeViolations(page, 'the edit form of a goal deleted elsewhere');
  assert.equal(await page.getByText('This goal does not exist (anymore).').count(), 0);
  assert.equal(await page.getByLabel('What do you want to do?').inputValue(), 'Sparkling water');
  assert.equal(await page.getByLabel('Number of days').inputValue(), '45');
  const start = await page.getByLabel('Start date').inputValue();
  assert.equal(start, today());

  await page.getByRole('button', { name: 'Save as new goal' }).click();
  await page.getByRole('heading', { name: 'Sparkling water', level: 1 }).waitFor();
  const goals = await api<(Goal & { unit: string; start: string })[]>(phone, 'GET', '/api/goals');
  assert.deepEqual(
    goals.map(({ id, name, unit, daily, days, start }) => ({ old: id === goal.id, name, unit, daily, days, start })),
    [{ old: false, name: 'Sparkling water', unit: 'glasses', daily: 8, days: 45, start: `${start} 00:00:00` }],
  );
});

test('two devices: saving the edit of a goal deleted elsewhere keeps the input and offers to leave', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { phone } = await editWhileDeletedElsewhere(t, 'edit-deleted-save@example.com');
  const { page } = phone;
  // The list has not been asked again: the save itself meets the deletion.
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('alert').getByText(DELETED_ELSEWHERE).waitFor();
  assert.equal(await page.getByLabel('What do you want to do?').inputValue(), 'Sparkling water');
  await page.getByRole('link', { name: 'Leave without saving' }).click();
  await page.locator('.empty').waitFor();
  assert.deepEqual(await api(phone, 'GET', '/api/goals'), []);
});

test('an edit saved while a tap is on its way counts the tap once', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal, facts } = await waterGoalPage(t, 'edit-while-sending@example.com');
  const { page, context } = who;
  const release = await holdRequests(context, '**/api/goals/*/sets/**');
  await page.getByRole('button', { name: '+1 glass', exact: true }).click();
  await facts.getByText('1 / 8 glasses today').waitFor();

  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('What do you want to do?').fill('Still water');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('heading', { name: 'Still water', level: 1 }).waitFor();
  await facts.getByText('1 / 8 glasses today').waitFor();
  assert.equal(await facts.getByText('2 / 8 glasses today').count(), 0);
  release();
  await assertAmountsToday(who, goal.id, [1]);
  await page.getByText('1 change not sent yet').waitFor({ state: 'detached' });
  await facts.getByText('1 / 8 glasses today').waitFor();
});

test('two devices: undo takes back an entry that is still there when the other device removed one of this device', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who: phone, goal } = await waterToday(t, 'undo-two-devices@example.com');
  const { page } = phone;
  await tapLog(page, 'Water', '+1 glasses');
  await tapLog(page, 'Water', '+1 glasses');
  await assertAmountsToday(phone, goal.id, [1, 1]);
  await row(page, 'Water').getByText('not sent yet').waitFor({ state: 'detached' });
  // The laptop takes one back by its value: the server removes the last 1, which is the phone's newest entry.
  const laptop = await device('undo-two-devices@example.com', 'en-GB', false);
  t.after(() => laptop.context.close());
  await api(laptop, 'POST', `/api/goals/${goal.id}/sets/${today()}/remove`, { amount: 1 });

  await page.reload();
  await row(page, 'Water').getByText('1 / 8').waitFor();
  await row(page, 'Water').getByRole('button', { name: /^Undo/ }).click();
  await assertAmountsToday(phone, goal.id, []);
  await row(page, 'Water').getByText('0 / 8').waitFor();
});

/** Fires the browser's sync event for the outbox through the DevTools protocol of `page` (any page of the context). */
async function outboxSync(context: BrowserContext, page: Page): Promise<() => Promise<unknown>> {
  const { cdp, registrationId } = await serviceWorkerSession(context, page, server.baseUrl);
  return () =>
    cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: server.baseUrl,
      registrationId,
      tag: 'steady-outbox',
      lastChance: false,
    });
}

/**
 * Syncs until the goal's amounts today are `expected`, a few times: under load the worker may still see a Steady
 * window that is leaving (it then hands the sync to that window) or the network as it was a moment ago; the browser
 * syncs again later too (Chromium may also fire a sync by itself when the network is back; entry_ids make a second
 * sending change nothing).
 */
async function syncUntil(who: Device, goalId: string, expected: number[], sync: () => Promise<unknown>) {
  const arrived = async () => JSON.stringify(await amountsToday(who, goalId)) === JSON.stringify(expected);
  await sync();
  for (let attempt = 1; attempt < 5 && !(await arrived()); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    if (!(await arrived())) await sync();
  }
}

/**
 * One glass logged offline on Today under the service worker; then the tab goes to `leaveTo`, the network comes
 * back, and only the worker's sync can send the entry. Answers when the server has it.
 */
async function sentByTheWorkerAfterLeaving(t: TestContext, email: string, leaveTo: string): Promise<void> {
  const { who, goal } = await waterToday(t, email);
  const { page, context } = who;
  await reloadUnderServiceWorker(page);

  await context.setOffline(true);
  await tapLog(page, 'Water', '+1 glasses');
  await row(page, 'Water').getByText('1 change not sent yet').waitFor();
  await untilQueued(page, 1);
  await page.goto(leaveTo);
  await context.setOffline(false);

  await syncUntil(who, goal.id, [1], await outboxSync(context, page));
  await assertAmountsToday(who, goal.id, [1]);
}

test('Background Sync: with no Steady tab open, the service worker sends the queue itself', async (t) => {
  if (!chromiumAvailable(t)) return;
  await sentByTheWorkerAfterLeaving(t, 'synced@example.com', 'about:blank');
});

/**
 * A Steady window that runs no app and so never answers the worker's hand-over, as a tab the browser froze in the
 * background does not (headless Chromium does not freeze a page, which is never hidden there): the app's icon,
 * opened in the tab that queued the entries. The worker controls it, so it is one of the worker's windows.
 */
const silentWindow = () => `${server.baseUrl}/icon.svg`;

test('Background Sync: a Steady tab that does not answer (frozen in the background) does not hold the queue back', async (t) => {
  if (!chromiumAvailable(t)) return;
  // No window answers within the worker's wait, so it sends the entry itself (decision 0128).
  await sentByTheWorkerAfterLeaving(t, 'frozen-tab@example.com', silentWindow());
});

test('Background Sync: beside a tab that does not answer, an amount undone by its value waits for the app', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'by-value@example.com');
  const { page, context } = who;
  // 5 glasses from another device (this one can take them back only by their value), then 5 from this one.
  await api(who, 'POST', `/api/goals/${goal.id}/sets/${today()}`, { amount: 5 });
  await reloadUnderServiceWorker(page);
  await tapLog(page, 'Water', '+5 glasses');
  await assertAmountsToday(who, goal.id, [5, 5]);

  // Offline: this device's 5 is taken back by its entry_id, the other 5 by its value, and 1 is logged.
  await context.setOffline(true);
  const undo = row(page, 'Water').getByRole('button', { name: /^Undo/ });
  await undo.click();
  await row(page, 'Water').getByText('5 / 8 glasses').waitFor();
  await undo.click();
  await row(page, 'Water').getByText('0 / 8 glasses').waitFor();
  await tapLog(page, 'Water', '+1 glasses');
  await row(page, 'Water').getByText('3 changes not sent yet').waitFor();
  await untilQueued(page, 1);
  await page.goto(silentWindow());
  await context.setOffline(false);

  // A frozen tab that wakes sends its queue from memory: a removal by value sent by the worker as well would take a
  // second 5 away. So the worker sends the removal by entry_id and stops there; the rest waits for the app.
  await syncUntil(who, goal.id, [5], await outboxSync(context, page));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  assert.deepEqual(await amountsToday(who, goal.id), [5], 'nothing sent past the removal by value');

  await openToday(who);
  // The whole queue goes: the note leaves, whatever its count ("entries" alone would let "1 entry" pass). A send
  // that failed waits for the retry timer, hence the time. What was still queued is said if it does not.
  await row(page, 'Water')
    .locator('.today-pending')
    .waitFor({ state: 'detached', timeout: 30_000 })
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\nstill queued: ${JSON.stringify(await queuedLogs(page))}`);
    });
  await assertAmountsToday(who, goal.id, [1]);
});

test('a log the server could not take (network error, then 503) is sent again by itself, with growing waits', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'retried@example.com');
  const { page } = who;
  // The first try fails on the network, the second gets a 503; no online event, no reload: only the retry timer.
  const tries: number[] = [];
  await who.context.route('**/api/goals/*/sets/**', async (route) => {
    tries.push(Date.now());
    if (tries.length === 1) return route.abort('connectionreset');
    if (tries.length === 2)
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":"unavailable","code":"database_unavailable"}',
      });
    return route.continue();
  });
  await tapLog(page, 'Water', '+1 glasses');
  await row(page, 'Water').getByText('1 change not sent yet').waitFor();
  await row(page, 'Water').getByText('1 change not sent yet').waitFor({ state: 'detached', timeout: 15_000 });
  await assertAmountsToday(who, goal.id, [1]);
  assert.equal(tries.length, 3);
  const [first, second, third] = tries as [number, number, number];
  assert.ok(third - second > second - first, `waits grow: ${second - first} ms, then ${third - second} ms`);
});

test('the queue survives a closed tab: a new tab shows it pending and sends it once the network is back', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'closed-tab@example.com');
  await reloadUnderServiceWorker(who.page);

  await who.context.setOffline(true);
  for (let i = 0; i < 2; i++) await tapLog(who.page, 'Water', '+1 glasses');
  await row(who.page, 'Water').getByText('2 changes not sent yet').waitFor();
  // The row shows a tap at once, before IndexedDB has stored it; a tab closed in between loses that tap (the likely
  // cause of one CI run's failure here), which is the browser's limit, not what this test is about.
  for (let i = 0; i < 100 && (await offlineRecords(who.page)).outbox !== 2; i++) await who.page.waitForTimeout(50);
  assert.equal((await offlineRecords(who.page)).outbox, 2, 'both taps are stored');
  await who.page.close();

  const page = await who.context.newPage();
  await page.goto(`${server.baseUrl}/#/goals`);
  await row(page, 'Water').getByText('2 changes not sent yet').waitFor();
  await who.context.setOffline(false);
  await row(page, 'Water').getByText('not sent yet').waitFor({ state: 'detached', timeout: 15_000 });
  await assertAmountsToday(who, goal.id, [1, 1]);
});

/** Another tab of the device, on Today. */
async function secondTab(who: Device): Promise<Page> {
  const page = await who.context.newPage();
  await page.goto(`${server.baseUrl}/#/goals`);
  await row(page, 'Water').waitFor();
  return page;
}

test("two tabs offline, one closed: the tab left open sends and shows the closed tab's entries (decision 0190)", async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await waterToday(t, 'two-tabs-closed@example.com');
  await reloadUnderServiceWorker(who.page);
  const other = await secondTab(who);

  await who.context.setOffline(true);
  for (let i = 0; i < 3; i++) await tapLog(who.page, 'Water', '+1 glasses');
  for (let i = 0; i < 2; i++) await tapLog(other, 'Water', '+1 glasses');
  await row(other, 'Water').getByRole('button', { name: /^Undo/ }).click();
  // Each running tab shows and sends its own queue.
  await row(who.page, 'Water').getByText('3 / 8 glasses').waitFor();
  await row(other, 'Water').getByText('1 / 8 glasses').waitFor();
  await untilQueued(other, 4);
  await who.page.close();

  await who.context.setOffline(false);
  // Before, the open tab sent only the queue it held, and the closed tab's three entries waited for the next start.
  await row(other, 'Water').getByText('4 / 8 glasses').waitFor();
  await row(other, 'Water').locator('.today-pending').waitFor({ state: 'detached', timeout: 15_000 });
  await assertAmountsToday(who, goal.id, [1, 1, 1, 1]);
});

/**
 * Like `waterToday`, with two 5s logged by another device: this one can take one back only by its value, and a second
 * sending of that undo takes both.
 */
async function twoFivesFromElsewhere(t: TestContext, email: string) {
  const { who, goal } = await waterToday(t, email);
  for (let i = 0; i < 2; i++) await api(who, 'POST', `/api/goals/${goal.id}/sets/${today()}`, { amount: 5 });
  await who.page.reload();
  await row(who.page, 'Water').getByText('10 / 8 glasses').waitFor();
  return { who, goal };
}

test('an undo by value queued in a closed tab is sent once, though two tabs are left to take it over', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await twoFivesFromElsewhere(t, 'three-tabs-by-value@example.com');
  const others = [await secondTab(who), await secondTab(who)];

  await who.context.setOffline(true);
  await row(who.page, 'Water').getByRole('button', { name: /^Undo/ }).click();
  await row(who.page, 'Water').getByText('5 / 8 glasses').waitFor();
  await assertEventually(async () => (await offlineRecords(who.page)).outbox, 1, 'the undo stored in the outbox');
  await who.page.close();

  await who.context.setOffline(false);
  // Sent by one of the two tabs, or by the service worker's own sync when no tab answered its hand-over in time (as
  // in loaded CI runs); a tab that did not send shows it only at its next reload of the list (decision 0190), so the
  // server is asked, for as long as a list reload may take.
  const deadline = Date.now() + 30_000;
  while (!isDeepStrictEqual(await amountsToday(who, goal.id), [5]) && Date.now() < deadline) {
    await others[0]!.waitForTimeout(250);
  }
  assert.deepEqual(await amountsToday(who, goal.id), [5]);
  // Both tabs waited for the closed tab's lock; the one that got it first took the row over, the other found none.
  await others[0]!.waitForTimeout(2_000);
  assert.deepEqual(await amountsToday(who, goal.id), [5]);
  assert.equal((await offlineRecords(others[0]!)).outbox, 0);
});

test('an undo by value that reached the server from a tab closed before its answer came is not taken twice by the tab taking it over', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal } = await twoFivesFromElsewhere(t, 'closed-while-sending@example.com');
  const other = await secondTab(who);
  // The server takes the closing tab's undo, but its answer is lost; the tab's own retries never leave it. It is
  // then closed with the row still in the outbox: its sender cannot know whether it arrived.
  let sent = 0;
  await who.page.route('**/api/goals/*/sets/*/remove', async (route) => {
    if (sent++ > 0) return route.abort('internetdisconnected');
    await route.fetch();
    await route.abort('connectionreset');
  });
  await row(who.page, 'Water').getByRole('button', { name: /^Undo/ }).click();
  await assertAmountsToday(who, goal.id, [5]);
  assert.equal((await offlineRecords(who.page)).outbox, 1, 'the undo is still queued');
  await who.page.close();

  // The tab left open takes the row over (at the latest on the next `online`) and sends it again: with its
  // Idempotency-Key the server takes nothing more away (decision 0200); before, it took the second 5.
  await who.context.setOffline(true);
  await who.context.setOffline(false);
  await assertEventually(async () => (await offlineRecords(other)).outbox, 0, 'the row taken over and sent');
  assert.deepEqual(await amountsToday(who, goal.id), [5]);
  await row(other, 'Water').getByText('5 / 8 glasses').waitFor();
});

/** A new device of `email` whose account speaks German, closed when the test ends. */
async function germanDevice(t: TestContext, email: string, options: BrowserContextOptions = {}): Promise<Device> {
  const who = await device(email, 'de-DE', true, options);
  t.after(() => who.context.close());
  await api(who, 'PATCH', '/api/me', { locale: 'de' });
  return who;
}

test("Today's other amount takes a decimal comma and asks about a surprising amount, as the goal page does", async (t) => {
  if (!chromiumAvailable(t)) return;
  const who = await germanDevice(t, 'comma@example.com');
  const { page } = who;
  const goal = await createGoal(who, { name: 'Lesen', unit: 'Seiten', daily: 20 });
  await openToday(who);
  const reading = row(page, 'Lesen');
  await reading.getByRole('button', { name: /^Andere Mengen/ }).click();
  const field = reading.getByLabel('Andere Menge (Seiten)');
  // Typed key by key, as a person does: a number field dropped the comma and logged 25.
  await field.pressSequentially('2,5');
  await reading.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
  await assertAmountsToday(who, goal.id, [2.5]);

  // 5000 pages is 250 daily targets: a slip of the keyboard, most likely, so it is asked about first.
  await field.fill('5000');
  await reading.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
  await page.getByRole('button', { name: 'Ja, eintragen' }).click();
  await assertAmountsToday(who, goal.id, [2.5, 5000]);

  await field.fill('zwei');
  await reading.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
  await reading.getByRole('alert').waitFor();
  assert.deepEqual(await amountsToday(who, goal.id), [2.5, 5000]);
});

test('German at 360 px: a target typed "0.250" is 0,25, and 0,001 Liter Wasser reads 0,001 on Today and the goal page', async (t) => {
  if (!chromiumAvailable(t)) return;
  const who = await germanDevice(t, 'thousandth@example.com', { viewport: { width: 360, height: 780 } });
  const { page } = who;
  // A keypad that offers only a point: "0.250" was saved as 250 Liter a day (decision 0170).
  await page.goto(`${server.baseUrl}/#/new`);
  await page.locator('#name').fill('Wasser');
  await page.locator('#daily').fill('0.250');
  await page.locator('#unit').fill('Liter Wasser');
  await page.getByRole('button', { name: 'Ziel anlegen' }).click();
  await page.waitForFunction(() => location.hash.startsWith('#/goal/'));
  const goals = await api<{ id: string; daily: number }[]>(who, 'GET', '/api/goals');
  assert.deepEqual(
    goals.map((goal) => goal.daily),
    [0.25],
  );
  const goal = goals[0]!;

  // 0,001 was shown as "0" everywhere: toast, one-tap button, list, remove button, undo (decision 0171).
  await openToday(who);
  const water = row(page, 'Wasser');
  await water.getByRole('button', { name: /^Andere Mengen/ }).click();
  await water.getByLabel('Andere Menge (Liter Wasser)').fill('0,001');
  await water.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
  await page.locator('.toast p', { hasText: '0,001 Liter Wasser eingetragen.' }).waitFor();
  await assertAmountsToday(who, goal.id, [0.001]);
  assert.equal(
    (await water.locator('.today-amounts').innerText()).replace(/\s+/g, ' '),
    '0,001 / 0,25 Liter Wasser · noch 0,249',
  );
  await water.getByRole('button', { name: /^\+0,001 Liter Wasser/ }).waitFor();
  await shot(page, 'de-360-thousandth-today');

  await page.goto(`${server.baseUrl}/#/goal/${goal.id}`);
  await page.locator('.fact-today', { hasText: '0,001 / 0,25 Liter Wasser heute' }).waitFor();
  await page.locator('.amount-list li', { hasText: '0,001 Liter Wasser' }).waitFor();
  await page.getByRole('button', { name: '0,001 entfernen' }).waitFor();
  const undo = page.getByRole('button', { name: 'Letzten Eintrag rückgängig machen (0,001)' });
  await undo.waitFor();
  await shot(page, 'de-360-thousandth-goal');
  await page.screenshot({ path: `${SHOTS}/de-360-thousandth-goal-whole.png`, fullPage: true });
  await undo.click();
  await page.locator('.toast p', { hasText: '0,001 Liter Wasser entfernt.' }).waitFor();
  await assertAmountsToday(who, goal.id, []);
});

test('at 360 px, a quick amount beside the question about a surprising amount keeps its height', async (t) => {
  if (!chromiumAvailable(t)) return;
  const who = await germanDevice(t, 'question-beside@example.com', { viewport: { width: 360, height: 740 } });
  const { page } = who;
  // 0,1 logged today makes it the usual amount, so "+0,25" (the target) is the one other quick amount, on the
  // same row as the amount field.
  await createGoal(who, { name: 'Viertel', unit: 'Liter', daily: 0.25, sets: { [today()]: [0.1] } });
  await openToday(who);
  const quarter = row(page, 'Viertel');
  await quarter.getByRole('button', { name: /^Andere Mengen/ }).click();
  const quick = quarter.locator('.today-more button.quick');
  const height = async () => (await quick.boundingBox())!.height;
  const alone = await height();
  await quarter.getByLabel('Andere Menge (Liter)').fill('30');
  await quarter.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
  await page.getByRole('button', { name: 'Ja, eintragen' }).waitFor();
  await page.screenshot({ path: `${SHOTS}/question-beside-quick-amount.png` });
  assert.equal(await height(), alone, 'the +0,25 button stretched beside the question');
});

/**
 * A page left open over midnight moves to the new day by itself: it shows the new, empty day, and a tap logs to it.
 * `open` shows the page and answers where its day's figure and its log button are.
 */
async function checkMidnight(
  t: TestContext,
  email: string,
  open: (page: Page, goalId: string) => Promise<{ area: Locator; dayShown: RegExp; log: Locator }>,
): Promise<void> {
  if (!chromiumAvailable(t)) return;
  const who = await device(email);
  t.after(() => who.context.close());
  const { page } = who;
  const goal = await createGoal(who, { name: 'Water', unit: 'glasses', daily: 8 });
  const evening = new Date();
  evening.setHours(23, 59, 50, 0);
  const [before, after] = [localDateKey(evening), localDateKey(new Date(evening.getTime() + 60_000))];
  await page.clock.install({ time: evening });
  const { area, dayShown, log } = await open(page, goal.id);
  await log.click();
  await area.getByText('/ 8 glasses').filter({ hasNotText: dayShown }).first().waitFor();

  // Nobody touches the page; midnight passes.
  await page.clock.runFor(20_000);
  await area.getByText(dayShown).waitFor();
  await log.click();
  const sets = async () =>
    (await api<{ id: string; sets: Record<string, number[]> }[]>(who, 'GET', '/api/goals')).find(
      (each) => each.id === goal.id,
    )!.sets;
  // The evening tap stays on its day; the tap after midnight is on the new day.
  await assertEventually(async () => {
    const logged = await sets();
    return [logged[before]?.length, logged[after]?.length];
  }, [1, 1]);
}

test('Today left open over midnight moves to the new day: a tap after midnight logs to the new day', (t) =>
  checkMidnight(t, 'midnight@example.com', async (page) => {
    await page.goto(`${server.baseUrl}/#/goals`);
    const water = row(page, 'Water');
    return { area: water, dayShown: /^0 \/ 8 glasses/, log: water.locator('.today-log') };
  }));

test('the goal page left open over midnight moves to the new day as Today does', (t) =>
  checkMidnight(t, 'goal-page-midnight@example.com', async (page, goalId) => {
    await page.goto(`${server.baseUrl}/#/goal/${goalId}`);
    const facts = page.locator('.facts');
    return {
      area: facts,
      dayShown: /^0 \/ 8 glasses today/,
      log: page.getByRole('button', { name: '+1 glass', exact: true }),
    };
  }));

test('the goal page logs and corrects through the outbox too: shown at once, a lost answer adds nothing twice, offline waits', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { who, goal, facts } = await waterGoalPage(t, 'goal-page-outbox@example.com');
  const { page, context } = who;
  await facts.getByText('0 / 8 glasses today').waitFor();

  // The server takes the first log, but its answer never arrives; the outbox sends it again with its entry_id (the
  // page or the service worker: either is a retry).
  let tries = 0;
  await context.route('**/api/goals/*/sets/**', async (route) => {
    tries++;
    if (tries > 1) return route.continue();
    await route.fetch();
    return route.abort('connectionreset');
  });
  await page.getByRole('button', { name: '+8 glasses' }).click();
  await facts.getByText('8 / 8 glasses today').waitFor();
  await assertAmountsToday(who, goal.id, [8]);
  for (let i = 0; i < 100 && tries < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.ok(tries >= 2, `the log was sent again after the lost answer (sent ${tries} times)`);
  await context.unroute('**/api/goals/*/sets/**');
  await assertAmountsToday(who, goal.id, [8]);

  // Offline, a tap is shown at once and sent when the network is back.
  await context.setOffline(true);
  await page.getByRole('button', { name: '+1 glass', exact: true }).click();
  await facts.getByText('9 / 8 glasses today').waitFor();
  await page.getByText('1 change not sent yet').waitFor();
  await page.getByText('Offline: showing what this device knows').waitFor();
  await context.setOffline(false);
  await page.getByText('1 change not sent yet').waitFor({ state: 'detached', timeout: 15_000 });
  await assertAmountsToday(who, goal.id, [8, 1]);

  // Undo takes back the last entry through the outbox as well.
  await page.getByRole('button', { name: /Undo last entry \(1\)/ }).click();
  await facts.getByText('8 / 8 glasses today').waitFor();
  await assertAmountsToday(who, goal.id, [8]);

  // "Log or correct a day" as well: offline, a chosen entry goes and a typed one comes at once, and both are sent.
  await context.setOffline(true);
  const day = page.locator('.past-day');
  await day.getByRole('button', { name: 'Remove 8' }).click();
  await day.getByLabel('Amount').fill('3');
  await day.getByRole('button', { name: 'Add to this day' }).click();
  await facts.getByText('3 / 8 glasses today').waitFor();
  await context.setOffline(false);
  await assertAmountsToday(who, goal.id, [3]);
  await page.reload();
  await facts.getByText('3 / 8 glasses today').waitFor();

  // A refusal for good rolls the page back and says why, here as on Today.
  await who.context.route('**/api/goals/*/sets/*', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'too many', code: 'too_many_amounts', field: 'amount' }),
    }),
  );
  await page.getByRole('button', { name: '+1 glass', exact: true }).click();
  await page.getByRole('alert').getByText('An entry for “Water” was not saved').waitFor();
  await facts.getByText('3 / 8 glasses today').waitFor();
  await who.context.unroute('**/api/goals/*/sets/*');
  await assertAmountsToday(who, goal.id, [3]);

  // Another device logs 2 after this one's 3. Undo takes back this device's entry first, and its button says so.
  await api(who, 'POST', `/api/goals/${goal.id}/sets/${today()}`, { amount: 2 });
  await page.reload();
  await facts.getByText('5 / 8 glasses today').waitFor();
  await page.getByRole('button', { name: /Undo last entry \(3\)/ }).click();
  await facts.getByText('2 / 8 glasses today').waitFor();
  await assertAmountsToday(who, goal.id, [2]);
  await page.getByRole('button', { name: /Undo last entry \(2\)/ }).waitFor();
});

test('a new goal form left open over midnight starts the goal on the new day, not the day before', async (t) => {
  if (!chromiumAvailable(t)) return;
  const who = await device('form-midnight@example.com');
  t.after(() => who.context.close());
  const { page } = who;
  const evening = new Date();
  evening.setHours(23, 59, 50, 0);
  const [before, after] = [localDateKey(evening), localDateKey(new Date(evening.getTime() + 60_000))];
  await page.clock.install({ time: evening });
  await page.goto(`${server.baseUrl}/#/new`);
  await page.getByLabel('What do you want to do?').fill('Reading');
  assert.equal(await page.getByLabel('Start date').inputValue(), before);

  // Nothing in flight when the page's clock jumps: a request would pass its deadline (10 s) and fail the page.
  await page.waitForLoadState('networkidle');
  // The person finishes typing after midnight; the start field they left alone shows, and sends, the new day.
  await page.clock.runFor(20_000);
  assert.equal(await page.getByLabel('Start date').inputValue(), after);
  await page.getByRole('button', { name: 'Create goal' }).click();
  await page.getByRole('heading', { name: 'Reading', level: 1 }).waitFor();
  const goals = await api<{ name: string; start: string }[]>(who, 'GET', '/api/goals');
  assert.deepEqual(
    goals.map(({ name, start }) => ({ name, start })),
    [{ name: 'Reading', start: `${after} 00:00:00` }],
  );
});

test('Today follows a change of the device time zone while it is open: within a minute a tap logs to the new day', async (t) => {
  if (!chromiumAvailable(t)) return;
  const who = await device('zone-change@example.com');
  t.after(() => who.context.close());
  const { page } = who;
  // 25 hours apart, so their dates always differ. Set by CDP, as the system would under a running browser.
  const [west, east] = ['Pacific/Pago_Pago', 'Pacific/Kiritimati'];
  const dateIn = (zone: string) => wallClockText(Date.now(), zone).slice(0, 10);
  const cdp = await who.context.newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: west });
  const goal = await createGoal(who, { name: 'Water', unit: 'glasses', daily: 8, start: addDays(dateIn(west), -2) });
  await page.clock.install();
  await openToday(who);
  const water = row(page, 'Water');
  await water.locator('.today-log').click();
  const westDay = dateIn(west);
  await assertEventually(() => setsOf(who, goal.id), { [westDay]: [1] });

  // The laptop lands: the system sets the new zone while the page stays open and in view.
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: east });
  await page.clock.runFor(61_000);
  await water.getByText(/^0 \/ 8 glasses/).waitFor();
  await water.locator('.today-log').click();
  await assertEventually(() => setsOf(who, goal.id), { [westDay]: [1], [dateIn(east)]: [1] });
});

test('Today at a midnight moved by daylight saving (America/Santiago): a skipped midnight starts the new day, an hour passed twice before midnight stays on its day', async (t) => {
  if (!chromiumAvailable(t)) return;
  const dayOn = async (email: string, evening: string, eveningDate: string) => {
    const who = await device(email, 'en-GB', true, { timezoneId: 'America/Santiago' });
    t.after(() => who.context.close());
    const goal = await createGoal(who, { name: 'Water', unit: 'glasses', daily: 8, start: '2026-09-01', days: 600 });
    await who.page.clock.install({ time: new Date(evening) });
    await openToday(who);
    const log = row(who.page, 'Water').locator('.today-log');
    await log.click();
    // Stored before the page's clock jumps, so no request is in flight past its deadline.
    await assertEventually(() => setsOf(who, goal.id), { [eveningDate]: [1] });
    return { who, goal, log };
  };

  // 2026-09-05 23:59:50 -04:00; ten seconds later clocks go from 00:00 to 01:00 -03:00 on the 6th.
  const spring = await dayOn('santiago-spring@example.com', '2026-09-06T03:59:50Z', '2026-09-05');
  await spring.who.page.clock.runFor(20_000);
  await row(spring.who.page, 'Water')
    .getByText(/^0 \/ 8 glasses/)
    .waitFor();
  await spring.log.click();
  await assertEventually(() => setsOf(spring.who, spring.goal.id), { '2026-09-05': [1], '2026-09-06': [1] });

  // 2027-04-03 23:59:50 -03:00; ten seconds later clocks go back to 23:00 -04:00, still the 3rd, for an hour.
  const autumn = await dayOn('santiago-autumn@example.com', '2027-04-04T02:59:50Z', '2027-04-03');
  await autumn.who.page.clock.runFor(20_000);
  await autumn.log.click();
  await assertEventually(() => setsOf(autumn.who, autumn.goal.id), { '2027-04-03': [1, 1] });
  await autumn.who.page.clock.runFor(60 * 60_000);
  await row(autumn.who.page, 'Water')
    .getByText(/^0 \/ 8 glasses/)
    .waitFor();
  await autumn.log.click();
  await assertEventually(() => setsOf(autumn.who, autumn.goal.id), { '2027-04-03': [1, 1], '2027-04-04': [1] });
});
