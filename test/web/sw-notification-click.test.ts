import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';

// A tap on a reminder cannot be driven in headless Chromium (DevTools can deliver a push, not click a
// notification), so the worker's own `notificationclick` listener runs here against a stand-in of the worker scope.
const ORIGIN = 'https://steady.example.org';
const source = readFileSync(new URL('../../src/web/public/sw.js', import.meta.url), 'utf8');

interface FakeWindow {
  url: string;
  navigated: string[];
  focused: boolean;
  navigate(url: string): Promise<FakeWindow>;
  focus(): Promise<FakeWindow>;
}

function fakeWindow(url: string): FakeWindow {
  const window: FakeWindow = {
    url,
    navigated: [],
    focused: false,
    async navigate(to) {
      window.navigated.push(to);
      return window;
    },
    async focus() {
      window.focused = true;
      return window;
    },
  };
  return window;
}

/** Loads sw.js into a stand-in scope and taps a notification carrying `url`; resolves when the worker is done. */
async function tap(url: string, windows: FakeWindow[]) {
  const listeners = new Map<string, (event: unknown) => void>();
  const opened: string[] = [];
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    clients: {
      matchAll: async () => windows,
      openWindow: async (to: string) => {
        opened.push(to);
        return null;
      },
    },
  };
  vm.runInNewContext(source, { self, URL });
  let closed = false;
  let work: Promise<unknown> = Promise.resolve();
  listeners.get('notificationclick')!({
    notification: { data: { url }, close: () => (closed = true) },
    waitUntil: (promise: Promise<unknown>) => (work = promise),
  });
  await work;
  return { opened, closed };
}

test('a tap on a reminder opens its goal in a new window when none of ours is open', async () => {
  const result = await tap(`${ORIGIN}/#/goal/7`, [fakeWindow('https://elsewhere.example/')]);
  assert.deepEqual(result, { opened: [`${ORIGIN}/#/goal/7`], closed: true });
});

test('a tap on a reminder takes an open Steady window to the goal and brings it forward', async () => {
  const open = fakeWindow(`${ORIGIN}/#/goals`);
  const result = await tap(`${ORIGIN}/#/goal/7`, [open]);
  assert.deepEqual(result.opened, []);
  assert.deepEqual(open.navigated, [`${ORIGIN}/#/goal/7`]);
  assert.equal(open.focused, true);
});

test('a link to another site in a notification opens Steady itself, never the other site', async () => {
  const result = await tap('https://evil.example/phish', []);
  assert.deepEqual(result.opened, [`${ORIGIN}/`]);
});
