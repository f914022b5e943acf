import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { projectRoot } from '../../../src/server/paths.js';

/** Runs the real entry point with `env` (and nothing inherited but PATH); kills it if it has not exited in 30 s. */
async function startServer(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'steady-start-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        DATABASE_URL: `sqlite:${path.join(dataDir, 'steady.db')}`,
        HOST: '127.0.0.1',
        PORT: '0',
        // Any free port: the links' base must then be given.
        BASE_URL: 'http://127.0.0.1',
        LOG_LEVEL: 'silent',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    clearTimeout(timer);
    return { code, stdout, stderr };
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

describe('a bad environment stops the process with one clear line', { concurrency: true }, () => {
  const cases: [string, string, RegExp][] = [
    ['PORT', 'abc', /^steady: invalid configuration: PORT: must be a whole number from 0 to 65535, got "abc"$/],
    [
      'DATABASE_URL',
      'mysql://x',
      /^steady: invalid configuration: DATABASE_URL: must start with sqlite: or postgres:\/\/, got "mysql:\/\/x"$/,
    ],
    [
      'ADMIN_EMAIL',
      'not-an-email',
      /^steady: invalid configuration: ADMIN_EMAIL: is not a valid e-mail address: "not-an-email"$/,
    ],
    [
      'BASE_URL',
      'notaurl',
      /^steady: invalid configuration: BASE_URL: must be an absolute http\(s\) URL, got "notaurl"$/,
    ],
    [
      'TRUST_PROXY',
      'true',
      /^steady: invalid configuration: TRUST_PROXY: "true" would trust every client's X-Forwarded-For; give your proxy's address instead/,
    ],
    ['TRUST_PROXY', '10.0.0.0/0', /^steady: invalid configuration: TRUST_PROXY: "10.0.0.0\/0" is not an IP address/],
    // Folders are made before the server answers; one that cannot be made (Node's own mkdir -p never returned here).
    [
      'BACKUP_DIR',
      '/proc/steady-backups',
      /^steady: invalid configuration: BACKUP_DIR: ENOENT: .*'\/proc\/steady-backups'$/,
    ],
    ['DATA_DIR', '/proc/steady-data', /^steady: invalid configuration: DATA_DIR: ENOENT: .*'\/proc\/steady-data'$/],
  ];
  for (const [variable, value, expected] of cases) {
    it(`${variable}=${value}`, async () => {
      const { code, stdout, stderr } = await startServer({ [variable]: value });
      assert.equal(code, 2, 'a configuration error exits with status 2');
      const lines = stderr.split('\n').filter((line) => line !== '');
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0]!, expected);
      assert.equal(stdout, '');
    });
  }

  it('a data folder shared with other users (sticky and world-writable, like /tmp) is refused, not taken over', async (t) => {
    const shared = await fs.mkdtemp(path.join(os.tmpdir(), 'steady-shared-'));
    t.after(() => fs.rm(shared, { recursive: true, force: true }));
    await fs.chmod(shared, 0o1777);
    const { code, stderr } = await startServer({
      DATA_DIR: '',
      DATABASE_URL: `sqlite:${path.join(shared, 'steady.db')}`,
    });
    assert.equal(code, 2, stderr);
    assert.equal(
      stderr.trim(),
      `steady: invalid configuration: DATA_DIR: ${shared} is shared with other users (like /tmp); give Steady a folder of its own (by default the folder of the SQLite file; set DATA_DIR)`,
    );
    assert.equal(((await fs.stat(shared)).mode & 0o7777).toString(8), '1777', 'the folder is left as it was');
    assert.deepEqual(await fs.readdir(shared), [], 'nothing was written into it');
  });

  it("a server started in place on one of BACKUP_DIR's daily backups is refused before it opens the file (decision 0216)", async (t) => {
    const backups = await fs.mkdtemp(path.join(os.tmpdir(), 'steady-backups-'));
    t.after(() => fs.rm(backups, { recursive: true, force: true }));
    const restored = path.join(backups, 'steady-2026-11-20.db');
    await fs.writeFile(restored, 'the bytes of a backup');
    // Through a link to the folder, as an operator's path may well be.
    const link = `${backups}-link`;
    await fs.symlink(backups, link);
    t.after(() => fs.rm(link, { force: true }));
    const { code, stderr } = await startServer({
      BACKUP_DIR: backups,
      DATABASE_URL: `sqlite:${path.join(link, 'steady-2026-11-20.db')}`,
    });
    assert.equal(code, 2, stderr);
    assert.equal(
      stderr.trim(),
      `steady: invalid configuration: DATABASE_URL: ${path.join(link, 'steady-2026-11-20.db')} is one of BACKUP_DIR's daily backups, which the daily backup replaces or removes; copy it out of BACKUP_DIR and start on the copy`,
    );
    assert.deepEqual((await fs.readdir(backups)).sort(), ['steady-2026-11-20.db'], 'no -wal, -shm or key was made');
    assert.equal(await fs.readFile(restored, 'utf8'), 'the bytes of a backup');
  });
});
