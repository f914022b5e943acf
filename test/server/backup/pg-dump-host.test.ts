import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { backupDatabase } from '../../../src/server/backup/backup.js';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { createTestApp } from '../../support/app.js';

/** A TCP port that forwards every connection to `target`, counting them. */
async function forwardingPort(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

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
    const forward = await forwardingPort({ host: served.hostname, port: Number(served.port || 5432) });
    t.after(() => forward.close());
    const user = decodeURIComponent(served.username || 'postgres');
    const hostless = parseDatabaseUrl(`postgres://${served.pathname}?port=${forward.port}&user=${user}`);
    assert.equal(hostless.kind, 'postgres');

    const file = path.join(app.deps.config.dataDir, 'hostless.dump');
    const written = await backupDatabase(hostless, file, { replace: false });

    assert.ok(written.bytes > 0 && fs.statSync(file).size === written.bytes);
    assert.ok(forward.connections() > 0, 'pg_dump connected where the server connects');
  },
);
