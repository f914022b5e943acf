import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createTestApp } from '../../support/app.js';
import { testDatabaseKind } from '../../support/database.js';

const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe('file modes (issue 13 point 10)', () => {
  it('after start the data folder is 0700 and the SQLite database with its -wal and -shm files 0600', async (t) => {
    // A data folder the service creates itself, below one with the usual 0755, under the usual umask of 022.
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-modes-'));
    fs.chmodSync(parent, 0o755);
    const previousUmask = process.umask(0o022);
    const dataDir = path.join(parent, 'data');
    const file = path.join(dataDir, 'steady.db');
    const sqlite = testDatabaseKind() === 'sqlite';
    const steady = await createTestApp({
      DATA_DIR: dataDir,
      ...(sqlite && { DATABASE_URL: `sqlite:${file}` }),
      SECRET_KEY: '',
    });
    t.after(async () => {
      process.umask(previousUmask);
      await steady.close();
      fs.rmSync(parent, { recursive: true, force: true });
    });
    await steady.register('anna@example.com'); // writes, so the WAL is in use

    assert.equal(mode(dataDir), '700');
    assert.equal(mode(path.join(dataDir, 'secret.key')), '600');
    if (sqlite) for (const name of [file, `${file}-wal`, `${file}-shm`]) assert.equal(mode(name), '600', name);
  });

  it('an existing data folder and database from before are tightened at start', async (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-modes-'));
    const file = path.join(dataDir, 'steady.db');
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const sqlite = testDatabaseKind() === 'sqlite';
    const steady = await createTestApp({ DATA_DIR: dataDir, ...(sqlite && { DATABASE_URL: `sqlite:${file}` }) });
    t.after(async () => {
      await steady.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    assert.equal(mode(dataDir), '700');
    if (sqlite) assert.equal(mode(file), '600');
  });
});
