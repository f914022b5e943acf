/**
 * PostgreSQL connections carry TCP keep-alive with Steady's idle time (decision 0184), read from the kernel's own
 * record of the socket (/proc/net/tcp: the keep-alive timer and the time left on it). That a dead peer is then
 * noticed needs its packets dropped (a firewall rule, root on a shared machine), which this test does not do.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { parseDatabaseUrl } from '../../../src/server/config.js';
import { DATABASE_TIMEOUTS, openDatabase } from '../../../src/server/db/open.js';
import { createTestDatabase } from '../../support/database.js';

/** The keep-alive timer of the connection `db` uses, in seconds left; null when its timer is another one or none. */
async function keepAliveSecondsLeft(db: Kysely<any>): Promise<number | null> {
  // The port of our end, as the server sees it: our connections go to 127.0.0.1 (IPv4, /proc/net/tcp).
  const { rows } = await sql<{ port: number }>`select inet_client_port() as port`.execute(db);
  const port = rows[0]!.port.toString(16).toUpperCase().padStart(4, '0');
  const socket = fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1]?.endsWith(`:${port}`));
  assert.ok(socket, `no socket with local port ${port} in /proc/net/tcp`);
  // "tr:tm->when": 2 is the keep-alive timer, the time left in hundredths of a second.
  const [kind, left] = socket[5]!.split(':');
  return kind === '02' ? parseInt(left!, 16) / 100 : null;
}

test('PostgreSQL connections, of requests and of migrations, get keep-alive probes after the idle time, not after 2 h', async () => {
  const database = await createTestDatabase('postgres');
  const handle = await openDatabase(parseDatabaseUrl(database.url));
  try {
    const idleSeconds = DATABASE_TIMEOUTS.keepAliveIdleMs / 1000;
    const requests = await keepAliveSecondsLeft(handle.db);
    const migrations = await handle.patiently(keepAliveSecondsLeft);
    for (const [which, left] of [
      ['requests', requests],
      ['migrations', migrations],
    ] as const) {
      assert.ok(left !== null && left > 0 && left <= idleSeconds, `${which}: ${left} s to the first probe`);
    }
  } finally {
    await handle.close();
    await database.drop();
  }
});
