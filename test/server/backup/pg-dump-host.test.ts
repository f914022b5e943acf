import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { backupDatabase } from '../../../src/server/backup/backup.js';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { createTestApp } from '../../support/app.js';
import { startTcpGate } from '../../support/tcp-gate.js';

test(
  'the backup of a PostgreSQL URL without a host is of the database the server uses: localhost over TCP, not the Unix socket',
  { timeout: 60_000 },
  async (t) => {
    const app = await createTestApp();
    t.after(() => app.close());
    const { database } = app.deps.config;
    if (database.kind !== 'postgres')
      return t.skip('PostgreSQL only: a SQLite URL has no host (run with TEST_DB=postgres)');
    const served = new URL(database.url);
    // A port on which only TCP answers: libpq's socket for it (/var/run/postgresql/.s.PGSQL.<port>) does not exist.
    const forward = await startTcpGate(served.hostname, Number(served.port || 5432));
    t.after(() => forward.stop());
    const user = decodeURIComponent(served.username || 'postgres');
    const hostless = parseDatabaseUrl(`postgres://${served.pathname}?port=${forward.port}&user=${user}`);
    assert.equal(hostless.kind, 'postgres');

    const file = path.join(app.deps.config.dataDir, 'hostless.dump');
    const written = await backupDatabase(hostless, file, { replace: false });

    assert.ok(written.bytes > 0 && fs.statSync(file).size === written.bytes);
    assert.ok(forward.connections() > 0, 'pg_dump connected where the server connects');
  },
);
