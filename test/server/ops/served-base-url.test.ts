import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { projectRoot } from '../../../src/server/paths.js';
import { createTestDatabase } from '../../support/database.js';
import { freePort, startServerProcess } from '../../support/server-process.js';

function steadyCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: projectRoot, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test(
  'PORT=<not 3000> without BASE_URL: the listening line names the address to open, `steady invite` links there, and 127.0.0.1 works as well as localhost',
  { timeout: 90_000 },
  async (t) => {
    const database = await createTestDatabase();
    t.after(() => database.drop());
    const port = await freePort();
    const shared = { DATABASE_URL: database.url, DATA_DIR: database.dataDir, LOG_LEVEL: 'info' };
    const server = startServerProcess({ ...shared, PORT: String(port) });
    t.after(() => server.kill());

    const listening = await server.waitForLine(
      (line) => typeof line.msg === 'string' && line.msg.startsWith('Steady is running at'),
    );
    assert.match(listening.msg, new RegExp(`^Steady is running at http://localhost:${port} \\(listening on http://`));
    await server.waitForLine((line) => typeof line.inviteUrl === 'string');

    // The operator's shell has neither PORT nor BASE_URL: the link must still reach the server.
    const made = await steadyCli(['invite'], shared);
    assert.equal(made.code, 0, made.stderr);
    const link = made.stdout.trimEnd().split('\n').at(-1)!;
    assert.match(link, new RegExp(`^http://localhost:${port}/\\?invite=[0-9a-f]{64}$`));
    const page = await fetch(link);
    assert.equal(page.status, 200);

    // A newcomer who opened http://127.0.0.1:<port> registers with the link's token: the Origin check lets it through.
    const loopback = `http://127.0.0.1:${port}`;
    const registered = await fetch(`${loopback}/api/register`, {
      method: 'POST',
      headers: { origin: loopback, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'anna@example.com',
        password: 'correct horse battery',
        token: new URL(link).searchParams.get('invite'),
      }),
    });
    assert.equal(registered.status, 200, await registered.text());
    const foreign = await fetch(`${loopback}/api/login`, {
      method: 'POST',
      headers: { origin: `http://127.0.0.2:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'anna@example.com', password: 'correct horse battery' }),
    });
    assert.equal(foreign.status, 403);

    // A BASE_URL of the CLI's own still wins.
    const own = await steadyCli(['invite'], { ...shared, BASE_URL: 'https://steady.example.org' });
    assert.match(own.stdout.trimEnd().split('\n').at(-1)!, /^https:\/\/steady\.example\.org\/\?invite=/);
  },
);
