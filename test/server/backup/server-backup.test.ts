import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../../../src/server/paths.js';

/** A zone where it is now about noon, so "from 03:00" holds for the whole test whatever time it runs. */
function zoneAtNoon(): { zone: string; localDate: string } {
  const now = new Date();
  let offset = 12 - now.getUTCHours();
  if (offset > 12) offset -= 24;
  if (offset < -12) offset += 24;
  // Etc/GMT names count the other way round: Etc/GMT-5 is UTC+5.
  const zone = offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
  const localDate = new Date(now.getTime() + offset * 3_600_000).toISOString().slice(0, 10);
  return { zone, localDate };
}

test(
  "a server started with BACKUP_DIR writes the day's backup (after 03:00 server time) on its own",
  { timeout: 60_000 },
  async (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-backup-dir-'));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const backupDir = path.join(dataDir, 'backups');
    const { zone, localDate } = zoneAtNoon();
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
        TZ: zone,
        BACKUP_DIR: backupDir,
      },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    t.after(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    const expected = path.join(backupDir, `steady-${localDate}.db`);
    const deadline = Date.now() + 30_000;
    while (!fs.existsSync(expected)) {
      assert.ok(
        Date.now() < deadline,
        `no backup ${expected} appeared; BACKUP_DIR has ${fs.existsSync(backupDir) ? fs.readdirSync(backupDir) : 'nothing'}`,
      );
      assert.equal(child.exitCode, null, 'the server exited');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(fs.statSync(expected).mode & 0o777, 0o600);
    assert.equal(fs.statSync(backupDir).mode & 0o777, 0o700, 'the backup folder is private like the data folder');
  },
);
