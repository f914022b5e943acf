/**
 * Your data in the browser: download the export from Settings, revoke a pending invite, and delete the account
 * after the password and a confirmation.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GOAL_LIMITS } from '../../src/common/goal.js';
import { addDays } from '../../src/common/progress.js';
import { chromiumAvailable, cliInvite, loseFirstAnswer, serverAndBrowser } from './support.js';

const PASSWORD = 'my data is mine 1';

test(
  'export from Settings, revoke an invite, delete the account with confirmation',
  { timeout: 120_000 },
  async (t) => {
    if (!chromiumAvailable(t)) return;
    const { server, browser } = await serverAndBrowser(t);
    const context = await browser.newContext({
      locale: 'en-GB',
      acceptDownloads: true,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();

    await page.goto(await cliInvite(server));
    await page.getByLabel('E-mail').fill('dana@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Your goals' }).waitFor();
    const created = await page.evaluate(async () => {
      const response = await fetch('/api/goals', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Push-ups 💪', daily: 0.1, sets: { '2026-01-15': [0.1, 2] } }),
      });
      return response.json();
    });

    let exportFile = '';
    await t.test('export', async () => {
      await page.goto(`${server.baseUrl}/#/settings`);
      await page.getByRole('heading', { name: 'Your data' }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('region', { name: 'Your data' }).getByRole('link', { name: 'Download all data (JSON)' }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^steady-export-\d{4}-\d{2}-\d{2}\.json$/);
      exportFile = (await download.path())!;
      const document = JSON.parse(readFileSync(exportFile, 'utf8'));
      assert.equal(document.format, 'steady-export');
      assert.equal(document.account.email, 'dana@example.com');
      assert.equal(document.goals.length, 1);
      const { created_at: _c, updated_at: _u, ...goal } = document.goals[0];
      assert.deepEqual(goal, created);
    });

    await t.test(
      'import: a file that is no export, a bad value named by its field, then the export itself, retried after its answer was lost',
      async () => {
        await page.goto(`${server.baseUrl}/#/settings`);
        const form = page.locator('form', { has: page.getByRole('heading', { name: 'Import goals' }) });
        await form.getByRole('button', { name: 'Import goals' }).click();
        await form.getByText('Choose a file first.').waitFor();

        const file = (name: string, text: string) => ({
          name,
          mimeType: 'application/json',
          buffer: Buffer.from(text),
        });
        const notAnExport = form.locator('#import-file-error', { hasText: /^This file is not a Steady export\.$/ });
        await form.getByLabel('Export file (JSON)').setInputFiles(file('notes.json', 'my notes, not JSON'));
        await form.getByRole('button', { name: 'Import goals' }).click();
        await notAnExport.waitFor();

        // JSON, but no export: the same plain sentence, never the path of a key it happens to have, and nothing sent.
        const imports: string[] = [];
        page.on('request', (request) => {
          if (request.url().endsWith('/api/import')) imports.push(request.url());
        });
        await form.getByLabel('Export file (JSON)').setInputFiles(file('other.json', '{"not":"steady"}'));
        await form.getByRole('button', { name: 'Import goals' }).click();
        await notAnExport.waitFor();
        assert.equal(await form.getByText('The first value that is not valid').count(), 0);
        assert.deepEqual(imports, []);

        const exported = JSON.parse(readFileSync(exportFile, 'utf8'));
        const broken = { ...exported, goals: [{ ...exported.goals[0], daily: -1 }] };
        await form.getByLabel('Export file (JSON)').setInputFiles(file('broken.json', JSON.stringify(broken)));
        await form.getByRole('button', { name: 'Import goals' }).click();
        await form.getByRole('alert').getByText('A value in this export is not valid.').waitFor();
        // The bad value is named as the goal form names it.
        await form
          .getByText(
            `The first value that is not valid belongs to goal 1 in the file (“${broken.goals[0].name}”), field “Daily target”.`,
          )
          .waitFor();

        // The first try reaches the server and is imported, but its answer is lost on the way back; the user chooses
        // the file again and retries. The goal is added once (decision 0127).
        await page.route(
          '**/api/import',
          async (route) => {
            await route.fetch();
            await route.abort('connectionreset');
          },
          { times: 1 },
        );
        await form.getByLabel('Export file (JSON)').setInputFiles(exportFile);
        await form.getByRole('button', { name: 'Import goals' }).click();
        await form.getByText('The server could not be reached. Check your connection and try again.').waitFor();
        await form.getByLabel('Export file (JSON)').setInputFiles(exportFile);
        await form.getByRole('button', { name: 'Import goals' }).click();
        await form.getByText('1 goal imported.').waitFor();
        // Another file chosen is not imported yet: the message about the last one goes.
        await form.getByLabel('Export file (JSON)').setInputFiles(exportFile);
        await form.getByText('1 goal imported.').waitFor({ state: 'hidden' });
        await page.goto(`${server.baseUrl}/#/`);
        await page.getByRole('heading', { name: 'Your goals' }).waitFor();
        const names = await page.evaluate(async () =>
          ((await (await fetch('/api/goals')).json()) as Array<{ name: string }>).map((goal) => goal.name),
        );
        assert.deepEqual(names, ['Push-ups 💪', 'Push-ups 💪']);
      },
    );

    await t.test(
      'import: an empty file, one not in UTF-8, a cut-off export, one from a newer Steady and one too large are refused unsent and say why; a bad date is named',
      async () => {
        await page.goto(`${server.baseUrl}/#/settings`);
        const form = page.locator('form', { has: page.getByRole('heading', { name: 'Import goals' }) });
        const fileError = form.locator('#import-file-error');
        const imports: string[] = [];
        const countImports = (request: { url: () => string }) => {
          if (request.url().endsWith('/api/import')) imports.push(request.url());
        };
        page.on('request', countImports);
        const choose = (name: string, text: string | Buffer) =>
          form
            .getByLabel('Export file (JSON)')
            .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
        const submit = () => form.getByRole('button', { name: 'Import goals' }).click();
        const exportText = readFileSync(exportFile, 'utf8');
        const exported = JSON.parse(exportText);

        // Cut off in the middle (an interrupted download): damaged, not "no export".
        await choose('cut.json', exportText.slice(0, Math.floor(exportText.length / 2)));
        await submit();
        await fileError.getByText(/^This Steady export is damaged or incomplete\.$/).waitFor();

        // An empty file, or one of spaces only: empty, not "not a Steady export" (decision 0188).
        for (const [name, text] of [
          ['empty.json', ''],
          ['spaces.json', ' \n\t\r\n '],
        ]) {
          await choose(name!, text!);
          await submit();
          await fileError.getByText(/^This file is empty\.$/).waitFor();
        }

        // An export an editor saved as Latin-1: refused, not imported as "Pomp\uFFFDki" (decision 0188).
        const latin1 = { ...exported, goals: [{ ...exported.goals[0], name: 'Pompöki' }] };
        await choose('latin1.json', Buffer.from(JSON.stringify(latin1), 'latin1'));
        await submit();
        await fileError.getByText(/^This file is not saved as UTF-8, as Steady writes its exports/).waitFor();

        // A later version of the format: said so, not "the first value that is not valid is at version".
        await choose('newer.json', JSON.stringify({ ...exported, version: 2 }));
        await submit();
        await fileError.getByText(/^This file comes from a newer version of Steady\.$/).waitFor();
        assert.equal(await form.getByText('The first value that is not valid').count(), 0);
        assert.deepEqual(imports, [], 'nothing sent');

        // More than the server takes (a valid export of 22 MB): refused before it is read or sent, naming the limit.
        // The file is made in the page, as a person's would come from the disk.
        await page.evaluate(() => {
          const input = document.querySelector<HTMLInputElement>('#import-file')!;
          const padding = 'x'.repeat(22_000_000);
          const text = `{"format":"steady-export","version":1,"goals":[],"account":{"name":"${padding}"}}`;
          const transfer = new DataTransfer();
          transfer.items.add(new File([text], 'big.json', { type: 'application/json' }));
          input.files = transfer.files;
          input.dispatchEvent(new Event('input', { bubbles: true }));
        });
        const started = Date.now();
        await submit();
        await fileError.getByText(/^Steady imports files of up to 20 MB; this one is larger\.$/).waitFor();
        assert.deepEqual(imports, [], 'nothing sent');
        assert.ok(Date.now() - started < 5_000, `refused after ${Date.now() - started} ms`);

        // A date of `sets` that is none: the server names it beside the field, and the app says which day it is.
        const badDay = { ...exported, goals: [{ ...exported.goals[0], sets: { '2024-02-30': [1] } }] };
        await choose('bad-day.json', JSON.stringify(badDay));
        await submit();
        await form.getByRole('alert').getByText('A value in this export is not valid.').waitFor();
        await form
          .getByText(
            `The first value that is not valid belongs to goal 1 in the file (“${exported.goals[0].name}”), day 2024-02-30.`,
          )
          .waitFor();

        // A goal above one goal's cap: the server names it (goal_too_large with its field), and the app says so in
        // words that fit an import, not the logging's "to store more".
        const full: Record<string, number[]> = {};
        for (let day = 0; day < GOAL_LIMITS.setsDatesMax; day++)
          full[addDays('2020-01-01', day)] = [123456.789, 987654.321];
        await choose('full.json', JSON.stringify({ ...exported, goals: [{ ...exported.goals[0], sets: full }] }));
        await submit();
        await form
          .getByRole('alert')
          .getByText(/^This goal has more logged amounts than Steady keeps for one goal\.$/)
          .waitFor();
        await form
          .getByText(
            `The first value that is not valid belongs to goal 1 in the file (“${exported.goals[0].name}”), field “Logged amounts”.`,
          )
          .waitFor();
        assert.equal(imports.length, 2);
        page.off('request', countImports);

        // A reverse proxy's own, smaller limit answers 413 in HTML: too much, without naming Steady's 20 MB, which
        // was not the reason (decision 0187).
        await page.route('**/api/import', (route) =>
          route.fulfill({ status: 413, contentType: 'text/html', body: '<h1>413 Request Entity Too Large</h1>' }),
        );
        await choose('export.json', exportText);
        await submit();
        await form
          .getByRole('alert')
          .getByText(/^That is too much data at once\.$/)
          .waitFor();
        await page.unroute('**/api/import');
      },
    );

    await t.test('revoke', async () => {
      await page.goto(`${server.baseUrl}/#/invites`);
      await page.getByLabel('Note (optional)').fill('for Emil');
      await page.getByRole('button', { name: 'Create invite link' }).click();
      const url = await page.getByLabel('New invite link').inputValue();
      const row = page.locator('li.invite', { hasText: 'for Emil' });
      await row.getByText('Pending').waitFor();
      await row.getByRole('button', { name: /^Revoke/ }).click();
      await row.getByText('Expired', { exact: true }).waitFor();
      assert.equal(await row.getByRole('button', { name: /^Revoke/ }).count(), 0);
      assert.equal(await row.getByText(url).count(), 0);
      const register = await fetch(`${server.baseUrl}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl },
        body: JSON.stringify({
          email: 'emil@example.com',
          password: PASSWORD,
          token: new URL(url).searchParams.get('invite'),
        }),
      });
      assert.equal(register.status, 400);

      // The revoke goes through but its answer is lost; the second tap finds the invite no longer pending and
      // takes that for the revoke it is, with no refusal shown.
      await page.getByLabel('Note (optional)').fill('for Frida');
      await page.getByRole('button', { name: 'Create invite link' }).click();
      const frida = page.locator('li.invite', { hasText: 'for Frida' });
      await frida.getByText('Pending').waitFor();
      await loseFirstAnswer(page, '**/api/invites/revoke');
      await frida.getByRole('button', { name: /^Revoke/ }).click();
      await frida.getByText('The server could not be reached', { exact: false }).waitFor();
      await frida.getByRole('button', { name: /^Revoke/ }).click();
      await frida.getByText('Expired', { exact: true }).waitFor();
      assert.equal(await frida.getByRole('alert').count(), 0, 'no refusal for the revoke that went through');
      await page.unroute('**/api/invites/revoke');
    });

    await t.test('delete the account with the password and a confirmation', async () => {
      await page.goto(`${server.baseUrl}/#/settings`);
      const section = page.locator('form', { has: page.getByRole('heading', { name: 'Delete account' }) });
      // The export is offered right there, before anything is deleted.
      await section.getByRole('link', { name: 'Download all data (JSON)' }).waitFor();
      await section.getByText('This cannot be undone.', { exact: false }).waitFor();

      await section.getByLabel('Your password').fill('not my password');
      await section.getByRole('button', { name: 'Delete account' }).click();
      await section.getByText('Really delete the account dana@example.com and all its data?').waitFor();
      await section.getByRole('button', { name: 'Yes, delete my account' }).click();
      await section.getByText('The current password is wrong.').waitFor();

      await section.getByLabel('Your password').fill(PASSWORD);
      await section.getByRole('button', { name: 'Delete account' }).click();
      await section.getByRole('button', { name: 'Cancel' }).click();
      assert.equal(await section.getByRole('button', { name: 'Yes, delete my account' }).count(), 0);
      // The deletion goes through but its answer is lost; the second try finds the session gone with the account
      // and says the account was deleted, not that the session ended.
      await loseFirstAnswer(page, '**/api/me', 'DELETE');
      await section.getByRole('button', { name: 'Delete account' }).click();
      await section.getByRole('button', { name: 'Yes, delete my account' }).click();
      await section.getByText('The server could not be reached', { exact: false }).waitFor();
      await section.getByRole('button', { name: 'Delete account' }).click();
      await section.getByRole('button', { name: 'Yes, delete my account' }).click();

      await page.getByRole('heading', { name: 'Log in' }).waitFor();
      await page.getByText('Your account has been deleted.').waitFor();
      const me = await page.evaluate(async () => (await fetch('/api/me')).status);
      assert.equal(me, 401);
      await page.getByLabel('E-mail').fill('dana@example.com');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByText('Wrong e-mail or password.').waitFor();
      // A pasted text far longer than any password is more than the login takes: the answer's limit is shown
      // (decision 0187), not only "too much".
      await page.getByLabel('Password', { exact: true }).fill('x'.repeat(20_000));
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByText('That is too much data at once: at most 16 KB can be sent here.').waitFor();
    });
  },
);
