import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { backupDatabase } from '../../../src/server/backup/backup.js';
import { createTestApp, PASSWORD } from '../../support/app.js';
import { steady } from '../../support/cli.js';
import { createTestDatabase } from '../../support/database.js';
import { restoreBackup } from '../../support/restore.js';
import { appEnv, cliEnv, startWriters, WRITERS_DATE } from './support.js';

test(
  'steady backup FILE while four writers log: every write acknowledged before it began is in the copy, which is whole and private, and a server started on it serves it',
  { timeout: 120_000 },
  async (t) => {
    const app = await createTestApp();
    t.after(() => app.close());
    const { writers, began, stop } = await startWriters(app, 4);
    const directory = fs.mkdtempSync(path.join(app.deps.config.dataDir, 'backups-'));
    const file = path.join(directory, 'steady-backup.db');
    began();
    const backup = await steady(['backup', file], appEnv(app));
    await stop();

    assert.equal(backup.stderr, '');
    assert.equal(backup.code, 0);
    assert.match(backup.stdout, /^Backup written: .*steady-backup\.db \(\d+ bytes\)\n$/);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(directory), ['steady-backup.db'], 'no temporary file is left');
    assert.ok(
      writers.every((writer) => writer.acked.length > writer.ackedBefore.length),
      'the writers kept writing during the backup',
    );

    if (app.deps.config.database.kind === 'sqlite') {
      const copy = new SqliteDatabase(file, { readonly: true });
      assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
      copy.close();
    }

    const restored = await restoreBackup(app.deps.config.database.kind, file);
    const server = await createTestApp(restored.env);
    t.after(async () => {
      await server.close();
      await restored.drop();
    });
    for (const [i, writer] of writers.entries()) {
      const client = server.client();
      assert.equal(
        (await client.post('/api/login', { email: `writer${i}@example.com`, password: PASSWORD })).status,
        200,
      );
      const [goal] = (await client.get('/api/goals')).body;
      assert.equal(goal.id, writer.goalId);
      assert.equal(goal.name, `Writer ${i} 📝`);
      const amounts: number[] = goal.sets[WRITERS_DATE];
      // A snapshot: the writer's amounts in order up to some point, and at least all acknowledged before the backup.
      assert.deepEqual(amounts, writer.acked.slice(0, amounts.length));
      assert.ok(
        amounts.length >= writer.ackedBefore.length,
        `writer ${i}: ${amounts.length} in the copy, ${writer.ackedBefore.length} acknowledged before`,
      );
    }
  },
);

test(
  'steady backup refuses to run without exactly one FILE (exit 2); a missing folder, a file in its place or a FILE that is a folder is named as the operator gave it (exit 1)',
  { timeout: 60_000 },
  async (t) => {
    const app = await createTestApp();
    t.after(() => app.close());
    assert.equal((await steady(['backup'], appEnv(app))).code, 2);
    const folder = path.join(app.deps.config.dataDir, 'missing-folder');
    const missing = await steady(['backup', path.join(folder, 'x.db')], appEnv(app));
    assert.equal(missing.code, 1);
    // Not the temporary file's name (".x.db.partial-<pid>-<random>"), which the operator never gave.
    assert.equal(
      missing.stderr,
      `steady backup: cannot write ${path.join(folder, 'x.db')}: the folder ${folder} does not exist\n`,
    );
    // A file where the folder should be: said so, not as the system's ENOTDIR of a stat.
    const aFile = path.join(app.deps.config.dataDir, 'a-file');
    fs.writeFileSync(aFile, '');
    const inFile = await steady(['backup', path.join(aFile, 'x.db')], appEnv(app));
    assert.equal(inFile.code, 1);
    assert.equal(inFile.stderr, `steady backup: cannot write ${path.join(aFile, 'x.db')}: ${aFile} is not a folder\n`);
    const directory = fs.mkdtempSync(path.join(app.deps.config.dataDir, 'backups-'));
    const intoFolder = await steady(['backup', directory], appEnv(app));
    assert.equal(intoFolder.code, 1);
    assert.equal(intoFolder.stderr, `steady backup: cannot write ${directory}: it is a folder; name a file in it\n`);
    assert.deepEqual(fs.readdirSync(directory), [], 'no temporary file is left');
  },
);

test(
  'steady backup refuses an existing FILE (exit 2, nothing written) and replaces it only with --force (decision 0215)',
  { timeout: 60_000 },
  async (t) => {
    const app = await createTestApp();
    t.after(() => app.close());
    const directory = fs.mkdtempSync(path.join(app.deps.config.dataDir, 'backups-'));
    const file = path.join(directory, 'steady-last-week.db');
    fs.writeFileSync(file, "last week's backup");

    const refused = await steady(['backup', file], appEnv(app));
    assert.equal(refused.code, 2);
    assert.equal(refused.stdout, '');
    assert.equal(
      refused.stderr,
      `steady backup: ${file} exists; name a new file, or give --force to replace it (see steady --help)\n`,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), "last week's backup");
    assert.deepEqual(fs.readdirSync(directory), ['steady-last-week.db'], 'no temporary file was made');
    assert.match((await steady(['--help'], appEnv(app))).stdout, /backup FILE \[--force\] .*\n.*only with --force/);

    const forced = await steady(['backup', file, '--force'], appEnv(app));
    assert.equal(forced.stderr, '');
    assert.equal(forced.code, 0);
    assert.notEqual(fs.readFileSync(file, 'utf8'), "last week's backup");
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(directory), ['steady-last-week.db']);
  },
);

test(
  'a FILE made under the same name while the backup is written is kept, and the backup fails (decision 0215)',
  { timeout: 60_000 },
  async (t) => {
    const app = await createTestApp();
    t.after(() => app.close());
    const directory = fs.mkdtempSync(path.join(app.deps.config.dataDir, 'backups-'));
    const file = path.join(directory, 'steady.backup');
    let settled = false;
    const backup = backupDatabase(app.deps.config.database, file, { replace: false });
    backup.catch(() => undefined).finally(() => (settled = true));
    // The copy runs in another process (a child Node or pg_dump): its temporary file is seen before it is renamed.
    const partial = () => fs.readdirSync(directory).some((name) => name.includes('.partial-'));
    while (!settled && !partial()) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'the backup was over before its temporary file was seen');
    fs.writeFileSync(file, 'another backup');
    await assert.rejects(backup, { message: `${file} was made while the backup was written; it was left as it is` });
    assert.equal(fs.readFileSync(file, 'utf8'), 'another backup');
    assert.deepEqual(fs.readdirSync(directory), ['steady.backup'], 'no temporary file is left');
  },
);

test(
  'steady backup on PostgreSQL without pg_dump on PATH says how to back up and exits 1',
  { timeout: 60_000 },
  async (t) => {
    const database = await createTestDatabase('postgres');
    t.after(() => database.drop());
    const emptyPath = fs.mkdtempSync(path.join(database.dataDir, 'no-tools-'));
    const file = path.join(database.dataDir, 'steady.dump');
    const result = await steady(['backup', file], { ...cliEnv(database.url, database.dataDir), PATH: emptyPath });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /pg_dump was not found on PATH/);
    assert.match(
      result.stderr,
      /pg_dump --format=custom --no-owner --exclude-table-data=backup_runs --file=steady\.dump "\$DATABASE_URL"/,
    );
    assert.match(result.stderr, /pg_restore --no-owner/);
    assert.equal(fs.existsSync(file), false);
    assert.deepEqual(
      fs.readdirSync(database.dataDir).filter((name) => name.includes('partial')),
      [],
    );
  },
);
