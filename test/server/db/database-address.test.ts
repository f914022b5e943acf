import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { databaseAddress } from '../../../src/server/db/unreachable.js';
import { steady } from '../../support/cli.js';
import { cliEnv } from '../cli/support.js';

/** The address with the PG* variables given (none by default: the tests do not depend on the machine's). */
const address = (url: string, env: NodeJS.ProcessEnv = {}) => databaseAddress(parseDatabaseUrl(url), env);

test('a PostgreSQL address is host:port/database, never the password', () => {
  assert.equal(address('postgres://steady:secret@db.example.org:5433/steady'), 'db.example.org:5433/steady');
  assert.equal(address('postgresql://steady:secret@[::1]/steady'), '[::1]/steady');
  assert.equal(
    address('postgres://steady@localhost/steady?host=db.example.org&port=6432'),
    'db.example.org:6432/steady',
  );
});

test('a PostgreSQL address over a Unix socket is the socket file pg connects to, with the database', () => {
  const socket = '/var/run/postgresql/.s.PGSQL.5432 (database steady)';
  assert.equal(address('postgres:///steady?host=/var/run/postgresql'), socket);
  assert.equal(address('postgres://steady:secret@localhost/steady?host=/var/run/postgresql/'), socket);
  assert.equal(address('postgres://%2Fvar%2Frun%2Fpostgresql/steady'), socket);
  assert.equal(
    address('postgres://steady:secret@%2Fvar%2Frun%2Fpostgresql:5433/steady'),
    '/var/run/postgresql/.s.PGSQL.5433 (database steady)',
  );
  assert.equal(address('postgres:///steady?host=/tmp&port=6432'), '/tmp/.s.PGSQL.6432 (database steady)');
  assert.equal(address('postgres:///?host=/tmp'), '/tmp/.s.PGSQL.5432');
  for (const url of ['postgres:///steady?host=/var/run/postgresql', 'postgres://steady:secret@%2Ftmp/steady']) {
    assert.ok(!address(url).includes('secret'));
  }
});

test('a PostgreSQL URL without a host names where pg connects: localhost over TCP, or PGHOST and PGPORT (decision 0215)', () => {
  assert.equal(address('postgres:///steady'), 'localhost/steady');
  assert.equal(address('postgres:///steady?port=6432'), 'localhost:6432/steady');
  assert.equal(address('postgres:///steady', { PGHOST: 'db.internal', PGPORT: '6432' }), 'db.internal:6432/steady');
  assert.equal(
    address('postgres:///steady', { PGHOST: '/var/run/postgresql' }),
    '/var/run/postgresql/.s.PGSQL.5432 (database steady)',
  );
  // What the URL says wins over the variables, as in pg.
  assert.equal(address('postgres://db.example.org/steady', { PGHOST: 'db.internal' }), 'db.example.org/steady');
  assert.equal(address('postgres://db.example.org/steady', { PGPORT: '6432' }), 'db.example.org:6432/steady');
});

test(
  'steady on a PostgreSQL URL without a host names the address pg tried, as pg itself does (decision 0215)',
  { timeout: 60_000 },
  async (t) => {
    // A port nothing listens on: pg's refusal names the address it really tried.
    const port = await closedPort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steady-no-host-'));
    t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    // `steady` runs with only this environment: no PGHOST or PGPORT.
    const run = await steady(['users'], cliEnv(`postgres:///steady?port=${port}`, dataDir));
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      new RegExp(
        `^steady users: the database at localhost:${port}/steady is unavailable \\(DATABASE_URL\\): ` +
          `connect ECONNREFUSED (127\\.0\\.0\\.1|::1):${port}\n$`,
      ),
    );
  },
);

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a SQLite address is the file', () => {
  assert.match(address('sqlite:./data/steady.db'), /\/data\/steady\.db$/);
});
