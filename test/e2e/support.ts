/**
 * Browser-test plumbing: the real server as a child process (built `dist/`), the real CLI for invites, Debian's
 * Chromium through playwright-core, and axe-core for accessibility checks.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import type { TestContext } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver.js';

export const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * True when the browser tests can run. Without Chromium they fail on CI and are skipped loudly elsewhere, so a
 * missing browser never passes silently where it matters.
 */
export function chromiumAvailable(t: TestContext): boolean {
  if (existsSync(CHROMIUM)) return true;
  const reason = `chromium not installed: ${CHROMIUM} is missing (apt-get install -y chromium)`;
  if (process.env.CI === 'true') throw new Error(reason);
  console.warn(`\n!!! SKIPPING browser tests: ${reason}\n`);
  t.skip(reason);
  return false;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface RunningServer {
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  smtp: SmtpReceiver;
  /** What the server wrote to stdout and stderr, for failure messages. */
  log: () => string;
  stop(): Promise<void>;
}

/** Starts `node dist/server/main.js` on a free port with a fresh SQLite database and a real SMTP receiver. */
export async function startServer(adminEmail: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  for (const built of ['dist/server/main.js', 'dist/cli/main.js', 'dist/web/index.html']) {
    if (!existsSync(path.join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'steady-e2e-'));
  const smtp = await startSmtpReceiver();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: baseUrl,
    DATABASE_URL: `sqlite:${path.join(dataDir, 'steady.db')}`,
    DATA_DIR: dataDir,
    ADMIN_EMAIL: adminEmail,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/me`);
      if (response.status === 401 || response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer within 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { baseUrl, env, smtp, log: () => output, stop };
}

/** `steady invite` as an operator runs it; the URL is the last line it prints. */
export async function cliInvite(server: RunningServer): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli/main.js', 'invite'], {
    cwd: ROOT,
    env: server.env,
  });
  const last = stdout.trim().split('\n').pop() ?? '';
  if (!last.startsWith(`${server.baseUrl}/?invite=`))
    throw new Error(`steady invite printed no invite URL:\n${stdout}`);
  return last;
}

const AXE_SOURCE = readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * axe-core's WCAG 2.x A/AA (and 2.2) rules on the current page, in the colour scheme given. The strict CSP
 * refuses injected script tags, so the library is evaluated through the DevTools protocol instead.
 */
export async function axeViolations(page: Page, colorScheme: 'light' | 'dark'): Promise<AxeViolation[]> {
  await page.emulateMedia({ colorScheme });
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const outcome = await page.evaluate(async () => {
    type Result = { violations: AxeViolation[]; passes: unknown[] };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return {
      passed: result.passes.length,
      violations: result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
      })),
    };
  });
  // A run that checked nothing would report no violations too; make sure the rules really ran.
  if (outcome.passed === 0) throw new Error('axe-core ran no rule on this page');
  return outcome.violations;
}

/** A readable account of violations for an assertion message. */
export function describeViolations(where: string, violations: AxeViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${where}: ${violation.id} (${violation.impact}) ${violation.help}\n${violation.nodes.map((node) => `   ${node.target.join(' ')} ${node.failureSummary ?? ''}`).join('\n')}`,
    )
    .join('\n');
}

/** axe's violations on the page in the light and the dark scheme, described; the page is left light. */
export async function violationsInBothSchemes(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    const violations = await axeViolations(page, scheme);
    if (violations.length > 0) found.push(describeViolations(`${where} (${scheme})`, violations));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

export async function assertNoAxeViolations(page: Page, where: string): Promise<void> {
  const found = await violationsInBothSchemes(page, where);
  assert.equal(found.length, 0, `axe-core found violations:\n${found.join('\n')}`);
}

/** A fresh server and browser for one test, both stopped when it ends. */
export async function serverAndBrowser(
  t: TestContext,
  adminEmail = 'nobody@example.com',
): Promise<{ server: RunningServer; browser: Browser }> {
  const server = await startServer(adminEmail);
  t.after(() => server.stop());
  const browser = await launchBrowser();
  t.after(() => browser.close());
  return { server, browser };
}

/** Fills the registration form an invite link opened, submits it, and waits for the app behind it. */
export async function registerOnForm(page: Page, email: string, password: string): Promise<void> {
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.locator('button[type=submit]').click();
  await page.locator('nav').waitFor();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until the service worker controls the page and has the app shell cached. */
export async function shellCached(page: Page): Promise<void> {
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (
      registration.active !== null &&
      navigator.serviceWorker.controller !== null &&
      (await caches.match('/')) !== undefined
    );
  });
}

/**
 * A DevTools session on `page` with the ServiceWorker domain on, and the id of Steady's worker registration, for
 * firing the events a browser fires by itself (push, sync) at the worker.
 */
export async function serviceWorkerSession(context: BrowserContext, page: Page, baseUrl: string) {
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((entry) => entry.scopeURL.startsWith(baseUrl) && !entry.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  return { cdp, registrationId: await registrationId };
}

/** A request from the page itself (its session cookie, its origin), JSON in and out. */
export async function apiFromPage(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    { method, path, body },
  );
}

/**
 * The first `method` request to `url` reaches the server, which carries it out, but its answer is lost on the way
 * back (a flaky network); later requests pass. What a tap again after "The server could not be reached" meets.
 */
export async function loseFirstAnswer(page: Page, url: string, method = 'POST'): Promise<void> {
  let lost = false;
  await page.route(url, async (route) => {
    if (lost || route.request().method() !== method) return route.fallback();
    lost = true;
    await route.fetch();
    await route.abort('connectionreset');
  });
}

/**
 * What a page did, for a failure's message: its navigations, its API requests and how they ended, what the browser
 * logged as an error, and notes the test adds. Each line starts with the milliseconds since the trail began; the
 * last 60 lines are kept.
 */
export function pageTrail(page: Page): { note: (text: string) => void; text: () => string } {
  const started = Date.now();
  const lines: string[] = [];
  const note = (text: string) => {
    lines.push(`${Date.now() - started} ms ${text}`);
    if (lines.length > 60) lines.shift();
  };
  const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`navigated to ${frame.url()}`);
  });
  page.on('requestfinished', async (request) => {
    if (!isApi(request.url())) return;
    const response = await request.response().catch(() => null);
    note(`${request.method()} ${request.url()} answered ${response?.status() ?? '?'}`);
  });
  page.on('requestfailed', (request) => {
    if (isApi(request.url())) note(`${request.method()} ${request.url()} failed: ${request.failure()?.errorText}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') note(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  return { note, text: () => lines.join('\n') };
}

/** `step`, or its failure with what `page` shows and what it did (`trail`), for a test that fails only under load. */
export async function explainedStep<T>(
  page: Page,
  trail: ReturnType<typeof pageTrail>,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (failure) {
    const shown = await page
      .locator('main')
      .innerText()
      .catch(() => '(no page)');
    throw new Error(`${String(failure)}\nThe page shows:\n${shown}\nWhat it did:\n${trail.text()}`, { cause: failure });
  }
}

/**
 * Asserts that `read()` comes to deep-equal `expected`: what the server holds a moment after the app showed a
 * change its outbox is still sending. Polls every 100 ms for up to 10 s, then fails with the last value read.
 */
export async function assertEventually<T>(read: () => Promise<T>, expected: T, message?: string): Promise<void> {
  let actual = await read();
  for (let i = 0; i < 100 && !isDeepStrictEqual(actual, expected); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    actual = await read();
  }
  assert.deepEqual(actual, expected, message);
}
