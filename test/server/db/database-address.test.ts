import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { databaseAddress } from '../../../src/server/db/unreachable.js';

const address = (url: string) => databaseAddress(parseDatabaseUrl(url));

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

test('a SQLite address is the file', () => {
  assert.match(address('sqlite:./data/steady.db'), /\/data\/steady\.db$/);
});
