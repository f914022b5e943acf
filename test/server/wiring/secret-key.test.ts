import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/server/config.js';
import { projectRoot } from '../../../src/server/paths.js';
import { createLogger } from '../../../src/server/log.js';
import { loadSecretKey } from '../../../src/server/secret-key.js';
import { createTestApp } from '../../support/app.js';
import { createTestDatabase } from '../../support/database.js';

function freshDataDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-key-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const configFor = (dataDir: string, env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });

test('without SECRET_KEY the first call creates <dataDir>/secret.key (0600, 64 hex characters) and later calls reuse it', (t) => {
  const dataDir = path.join(freshDataDir(t), 'not-yet-there');
  const key = loadSecretKey(configFor(dataDir));

  const file = path.join(dataDir, 'secret.key');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const content = fs.readFileSync(file, 'utf8');
  assert.match(content, /^[0-9a-f]{64}$/);
  assert.equal(key.toString('hex'), content);
  assert.deepEqual(fs.readdirSync(dataDir), ['secret.key'], 'the temporary file is gone');

  assert.deepEqual(loadSecretKey(configFor(dataDir)), key);
  assert.equal(fs.readFileSync(file, 'utf8'), content);
});

test('a secret.key that does not hold 64 hex characters is refused with a message naming the file and the way out', (t) => {
  const dataDir = freshDataDir(t);
  const file = path.join(dataDir, 'secret.key');
  for (const content of ['', 'not a key', 'ab'.repeat(31)]) {
    fs.writeFileSync(file, content);
    assert.throws(() => loadSecretKey(configFor(dataDir)), {
      message: `${file} does not hold 64 hexadecimal characters; remove it or set SECRET_KEY`,
    });
    assert.equal(fs.readFileSync(file, 'utf8'), content, 'the file is left for the operator to look at');
  }
});

test('SECRET_KEY wins over an existing key file, which stays as it was', (t) => {
  const dataDir = freshDataDir(t);
  const file = path.join(dataDir, 'secret.key');
  fs.writeFileSync(file, '11'.repeat(32));
  const key = loadSecretKey(configFor(dataDir, { SECRET_KEY: '22'.repeat(32) }));
  assert.equal(key.toString('hex'), '22'.repeat(32));
  assert.equal(fs.readFileSync(file, 'utf8'), '11'.repeat(32));
});

test('processes starting together on a fresh data directory all end up with the one key in the file', async (t) => {
  const dataDir = freshDataDir(t);
  const startAt = Date.now() + 5_000;
  // Each process waits for the same moment (far enough ahead for all to have started on a busy machine) and
  // spins for the last few milliseconds, so their calls overlap instead of running one after another.
  const script = `
    const [secretKeyModule, configModule, dataDir, startAt] = process.argv.slice(1);
    const { loadSecretKey } = await import(secretKeyModule);
    const { loadConfig } = await import(configModule);
    await new Promise((resolve) => setTimeout(resolve, Number(startAt) - 20 - Date.now()));
    while (Date.now() < Number(startAt));
    console.log(loadSecretKey(loadConfig({ DATA_DIR: dataDir })).toString('hex'));
  `;
  const modules = ['secret-key.ts', 'config.ts'].map((name) => path.join(projectRoot, 'src', 'server', name));
  const run = () =>
    new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, ...modules, dataDir, String(startAt)],
        { cwd: projectRoot, timeout: 30_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout.trim())),
      );
    });
  const keys = await Promise.all(Array.from({ length: 6 }, run));

  const stored = fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8');
  assert.match(stored, /^[0-9a-f]{64}$/);
  assert.deepEqual(keys, Array(6).fill(stored));
  assert.deepEqual(fs.readdirSync(dataDir), ['secret.key']);
});

test('a new secret.key beside a database that has accounts (moved, restored) is logged as a warning naming the file', async (t) => {
  const database = await createTestDatabase();
  const warnings = async (dataDir: string, keep: boolean) => {
    const logged: string[] = [];
    const log = createLogger({ level: 'warn', readable: false, write: (text) => void logged.push(text) });
    const steady = await createTestApp(
      { DATA_DIR: dataDir, SECRET_KEY: '' },
      { log, database: keep ? { ...database, drop: async () => undefined } : database },
    );
    return { steady, warned: logged.map((line) => JSON.parse(line)).filter((line) => line.level >= 40) };
  };
  const first = await warnings(freshDataDir(t), true);
  assert.deepEqual(first.warned, [], 'a first start, with no accounts yet, makes its key without a word');
  await first.steady.register('anna@example.com');
  await first.steady.close();

  const moved = freshDataDir(t);
  const second = await warnings(moved, false);
  t.after(() => second.steady.close());
  assert.equal(second.warned.length, 1, JSON.stringify(second.warned));
  assert.match(second.warned[0].msg, /^a new secret\.key was made for a database that has accounts/);
  assert.equal(second.warned[0].file, path.join(moved, 'secret.key'));
});
