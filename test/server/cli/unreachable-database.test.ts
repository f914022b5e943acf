import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { steady } from '../../support/cli.js';
import { startTcpGate } from '../../support/tcp-gate.js';
import { cliEnv } from './support.js';

test(
  'steady against a PostgreSQL that never answers, or hangs up, names the database and the setting that gave it (exit 1)',
  { timeout: 120_000 },
  async (t) => {
    // Nothing is forwarded while the gate hangs or is closed, so no PostgreSQL is needed behind it.
    const gate = await startTcpGate('127.0.0.1', 9);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-unreachable-'));
    t.after(async () => {
      await gate.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const address = `127.0.0.1:${gate.port}/steady`;
    const silentUrl = `postgres://steady:secret-password@${address}`;

    gate.hang();
    // The CLI opens the database as requests do (a connect deadline of 1 s): pg then says only "timeout expired".
    const silent = await steady(['users'], cliEnv(silentUrl, dataDir));
    assert.equal(silent.code, 1);
    assert.equal(silent.stdout, '');
    assert.equal(silent.stderr, `steady users: the database at ${address} did not answer (DATABASE_URL)\n`);

    // The target of a copy is named as --to, not as DATABASE_URL.
    const source = path.join(dataDir, 'steady.db');
    assert.equal((await steady(['migrate'], cliEnv(`sqlite:${source}`, dataDir))).code, 0);
    const copy = await steady(['copy', '--to', silentUrl], cliEnv(`sqlite:${source}`, dataDir));
    assert.equal(copy.code, 1);
    assert.equal(copy.stderr, `steady copy: the database at ${address} did not answer (--to)\n`);

    gate.close();
    const closed = await steady(['users'], cliEnv(silentUrl, dataDir));
    assert.equal(closed.code, 1);
    assert.match(
      closed.stderr,
      new RegExp(`^steady users: the database at ${address} is unavailable \\(DATABASE_URL\\): .+\n$`),
    );
    assert.doesNotMatch(closed.stderr + silent.stderr + copy.stderr, /secret-password/);
  },
);
