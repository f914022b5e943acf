/**
 * Steady without a mouse: register, create a goal and log an amount using only Tab, typing and Enter, with a
 * visible focus indicator on every control that takes focus on the way.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumAvailable, cliInvite, serverAndBrowser } from './support.js';

/**
 * The focused element's name as a screen reader would announce it, whether it is a Tab stop (the app also moves
 * focus to a page's heading, tabindex -1, after navigation), and whether a focus outline is drawn.
 */
async function focused(page: Page): Promise<{ name: string; tabStop: boolean; outline: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { name: '', tabStop: false, outline: false };
    const label = (element as HTMLInputElement).labels?.[0]?.textContent ?? element.getAttribute('aria-label') ?? '';
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return {
      name: (label || element.textContent || '').replace(/\s+/g, ' ').trim(),
      tabStop: element.tabIndex >= 0,
      outline,
    };
  });
}

/** Presses Tab until the focused element's name matches; fails if it is not reachable within `max` presses. */
async function tabTo(page: Page, name: RegExp, max = 40): Promise<void> {
  const passed: string[] = [];
  for (let press = 0; press < max; press++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    assert.ok(!now.tabStop || now.outline, `"${now.name}" has focus but no visible focus indicator`);
    if (name.test(now.name)) return;
    passed.push(now.name);
  }
  assert.fail(`${name} was not reached by Tab; focus went through: ${passed.join(' | ')}`);
}

/**
 * Records, for every page heading that appears from now on, whether it already had the focus when it appeared.
 * The record is taken in a microtask queued by a MutationObserver callback: after every observer of the same change
 * has run (the app's own, for a page in a chunk, decision 0144) and before the next task or animation frame, so
 * before any key is handled. A heading focused only a frame later (and so after a quick Tab had moved on) is recorded
 * as not focused.
 */
async function watchHeadingFocusOnArrival(page: Page): Promise<() => Promise<Record<string, boolean>>> {
  await page.evaluate(() => {
    const seen: Record<string, boolean> = {};
    (window as unknown as { headingFocus: Record<string, boolean> }).headingFocus = seen;
    let last = document.querySelector('main h1');
    new MutationObserver(() => {
      const heading = document.querySelector('main h1');
      if (!heading || heading === last) return;
      last = heading;
      queueMicrotask(() => (seen[(heading.textContent ?? '').trim()] = document.activeElement === heading));
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { headingFocus: Record<string, boolean> }).headingFocus);
}

test('register, create a goal and log an amount with the keyboard alone', { timeout: 90_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  const { server, browser } = await serverAndBrowser(t);
  const page = await (await browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } })).newPage();

  await page.goto(await cliInvite(server));
  await page.getByRole('heading', { name: 'Create your account' }).waitFor();
  await tabTo(page, /^E-mail/);
  await page.keyboard.type('kim@example.com');
  await tabTo(page, /^Password/);
  await page.keyboard.type('keyboard only 123');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Your goals' }).waitFor();

  const headingsOnArrival = await watchHeadingFocusOnArrival(page);
  await tabTo(page, /New goal/);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'New goal' }).waitFor();
  await tabTo(page, /What do you want to do/);
  await page.keyboard.type('Stretching');
  await tabTo(page, /Daily target/);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('20');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Stretching' }).waitFor();
  // Each new page's heading holds the focus from the moment it is shown, so a Tab pressed at once starts there; the
  // goal form is a chunk of its own (decision 0175), whose heading the app focuses as it appears.
  assert.deepEqual(await headingsOnArrival(), { 'New goal': true, Stretching: true });

  await tabTo(page, /^\+10\b/);
  await page.keyboard.press('Enter');
  await page.locator('.facts', { hasText: '10 / 20' }).waitFor();
  await tabTo(page, /Undo last entry/);
  await page.keyboard.press('Space');
  await page.locator('.facts', { hasText: '0 / 20' }).waitFor();

  // Settings come as a chunk of their own (decision 0144): the heading takes the focus once it is there.
  await page.getByRole('link', { name: 'Settings' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.matches('main h1') === true);
  assert.equal((await focused(page)).name, 'Settings');
});
