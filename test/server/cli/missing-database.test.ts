import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { BASE_URL } from '../../support/app.js';
import { steady } from '../../support/cli.js';

test(
  'a SQLite DATABASE_URL whose file does not exist: every command but migrate exits 1 naming the file and creates nothing; migrate creates it',
  { timeout: 60_000 },
  async (t) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-missing-'));
    t.after(() => fs.rmSync(root, { recursive: true, force: true }));
    const file = path.join(root, 'typo', 'steady.db');
    // No DATA_DIR and no SECRET_KEY, as an operator runs it: secret.key would be made beside the database.
    const env = { DATABASE_URL: `sqlite:${file}`, BASE_URL, LOG_LEVEL: 'silent' };

    const commands = [
      ['users'],
      ['backup', path.join(root, 'backup.db')],
      ['invite'],
      ['reset-link', 'anna@example.com'],
      ['copy', '--to', `sqlite:${path.join(root, 'copy.db')}`],
    ];
    for (const args of commands) {
      const run = await steady(args, env);
      assert.equal(run.code, 1, args.join(' '));
      assert.equal(run.stdout, '');
      assert.equal(
        run.stderr,
        `steady ${args[0]}: no database at ${file} (DATABASE_URL); start the server once, or create it with: steady migrate\n`,
      );
    }
    assert.deepEqual(fs.readdirSync(root), [], 'no folder, database, secret.key, backup or copy was made');

    const migrated = await steady(['migrate'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stdout, /^Applied migrations: 0001_accounts, /);
    assert.deepEqual(fs.readdirSync(path.dirname(file)).sort(), ['secret.key', 'steady.db']);
    const users = await steady(['users'], env);
    assert.equal(users.code, 0, users.stderr);
    assert.equal(users.stdout, 'No users yet. Create an invite with: steady invite\n');
  },
);
