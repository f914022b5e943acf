/**
 * The administrator's list with 80 accounts (decision 0204): a search field, labelled, filters by e-mail or name
 * while typing, ignoring case and accents, in any order of the words, and a live count says how many of all are
 * shown, in the plural forms of en, de and pl.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  apiFromPage,
  assertNoAxeViolations,
  chromiumAvailable,
  cliInvite,
  registerOnForm,
  serverAndBrowser,
} from './support.js';

const ADMIN = 'admin@example.com';
const PASSWORD = 'admin search 123';
/** 79 accounts besides the administrator's: 75 numbered ones (every third without a name) and four with accents. */
const USERS = [
  ...Array.from({ length: 75 }, (_, index) => {
    const number = String(index + 1).padStart(2, '0');
    return { email: `user-${number}@example.com`, name: index % 3 === 0 ? '' : `Person ${number}` };
  }),
  { email: 'renee@example.com', name: 'Renée Müller' },
  { email: 'lucja@example.com', name: 'Łucja Żółć' },
  { email: 'jose@example.com', name: 'José Álvarez' },
  { email: 'gruss@example.com', name: 'Grüße aus der Straße' },
];

/** Registers USERS: 50 with the administrator's invites (`inviter`), the rest with the first one's (50 a day each). */
async function registerAll(baseUrl: string, inviter: (count: number) => Promise<string[]>) {
  const tokens = await inviter(50);
  const cookies: string[] = [];
  const register = async (user: (typeof USERS)[number], token: string) => {
    const answer = await fetch(`${baseUrl}/api/register`, {
      method: 'POST',
      headers: { origin: baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: PASSWORD, token, name: user.name }),
    });
    assert.equal(answer.status, 200, await answer.text());
    return answer.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
  };
  for (const [index, user] of USERS.slice(0, 50).entries()) cookies.push(await register(user, tokens[index]!));
  // The rest with invites of the first registered account.
  const more = await Promise.all(
    USERS.slice(50).map(async () => {
      const answer = await fetch(`${baseUrl}/api/invite`, {
        method: 'POST',
        headers: { origin: baseUrl, 'content-type': 'application/json', cookie: cookies[0]! },
        body: '{}',
      });
      const body = await answer.text();
      assert.equal(answer.status, 200, body);
      return new URL((JSON.parse(body) as { url: string }).url).searchParams.get('invite')!;
    }),
  );
  for (const [index, user] of USERS.slice(50).entries()) await register(user, more[index]!);
}

/** The e-mail addresses the list shows, in its order. */
const shownEmails = (page: Page) => page.locator('.users tbody tr td:first-child').allInnerTexts();

async function search(page: Page, text: string): Promise<void> {
  const field = page.getByRole('searchbox', { name: /./ });
  await field.fill('');
  await field.focus();
  // Typed key by key, as a person does: the list follows every key.
  await page.keyboard.type(text);
}

test('the administrator finds one of 80 users by e-mail or name, without accents or case, and hears the count', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { server, browser } = await serverAndBrowser(t, ADMIN);
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } });
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto(await cliInvite(server));
  await registerOnForm(page, ADMIN, PASSWORD);
  await registerAll(server.baseUrl, async (count) => {
    const tokens: string[] = [];
    for (let index = 0; index < count; index++) {
      const invite = await apiFromPage(page, 'POST', '/api/invite', {});
      assert.equal(invite.status, 200);
      tokens.push(new URL(invite.body.url).searchParams.get('invite')!);
    }
    return tokens;
  });

  await page.goto(`${server.baseUrl}/#/admin`);
  const count = page.locator('#user-count');
  await count.getByText('80 users', { exact: true }).waitFor();
  assert.equal(await count.getAttribute('role'), 'status');
  assert.equal((await shownEmails(page)).length, 80);
  const field = page.getByRole('searchbox', { name: 'Search by e-mail or name' });
  assert.equal(await field.count(), 1);
  assert.equal(await page.getByRole('search').count(), 1);

  const cases: Array<[string, string[], string]> = [
    ['muller', ['renee@example.com'], '1 of 80 users'],
    ['ZOLC', ['lucja@example.com'], '1 of 80 users'],
    ['lucja', ['lucja@example.com'], '1 of 80 users'],
    ['alvarez JOSÉ', ['jose@example.com'], '1 of 80 users'],
    ['strasse', ['gruss@example.com'], '1 of 80 users'],
    // Every word somewhere in the e-mail or the name: 30 to 39 with a name (31, 34 and 37 have none).
    ['person user-3', ['30', '32', '33', '35', '36', '38', '39'].map((n) => `user-${n}@example.com`), '7 of 80 users'],
    ['user-1', [...Array(10).keys()].map((n) => `user-1${n}@example.com`), '10 of 80 users'],
  ];
  for (const [typed, emails, said] of cases) {
    await search(page, typed);
    await count.getByText(said, { exact: true }).waitFor();
    assert.deepEqual(await shownEmails(page), emails, `searching "${typed}"`);
  }
  await assertNoAxeViolations(page, 'the searched user list');
  await search(page, 'nobody at all');
  await count.getByText('0 of 80 users', { exact: true }).waitFor();
  assert.equal(await page.locator('.users').count(), 0);
  // Escape empties a search field: the whole list again.
  await page.keyboard.press('Escape');
  await count.getByText('80 users', { exact: true }).waitFor();
  assert.equal((await shownEmails(page)).length, 80);

  for (const [locale, ten, one] of [
    ['pl', '10 z 80 użytkowników', '1 z 80 użytkowników'],
    ['de', '10 von 80 Benutzern', '1 von 80 Benutzern'],
  ] as const) {
    assert.equal((await apiFromPage(page, 'PATCH', '/api/me', { locale })).status, 200);
    await page.reload();
    await page.locator('.users').waitFor();
    await search(page, 'user-1');
    await count.getByText(ten, { exact: true }).waitFor();
    await page.screenshot({ path: `test-results/screenshots/admin-search-${locale}.png` });
    await search(page, 'müller');
    await count.getByText(one, { exact: true }).waitFor();
    assert.deepEqual(await shownEmails(page), ['renee@example.com']);
  }
});
