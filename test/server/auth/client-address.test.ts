import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressThrottleKey } from '../../../src/server/auth/client-address.js';
import { THROTTLE_RULES } from '../../../src/server/auth/throttle.js';
import { createTestApp, PASSWORD } from '../../support/app.js';

describe('throttling key of a client address', () => {
  it('keeps IPv4 addresses as they are, also when mapped into IPv6', () => {
    assert.equal(addressThrottleKey('203.0.113.7'), '203.0.113.7');
    assert.equal(addressThrottleKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(addressThrottleKey('::FFFF:203.0.113.7'), '203.0.113.7');
  });

  it('counts IPv6 addresses per /64 network, however they are written', () => {
    const expected = '2001:db8:0:1::/64';
    for (const ip of [
      '2001:db8:0:1::1',
      '2001:0db8:0000:0001:ffff:ffff:ffff:ffff',
      '2001:DB8:0:1:0:0:0:2',
      '2001:db8:0:1::1.2.3.4',
      '2001:db8:0:1::9%eth0',
    ]) {
      assert.equal(addressThrottleKey(ip), expected, ip);
    }
    assert.equal(addressThrottleKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressThrottleKey('::1'), '0:0:0:0::/64');
    assert.equal(addressThrottleKey('fe80::1:2:3:4'), 'fe80:0:0:0::/64');
  });

  it('passes anything else through unchanged', () => {
    assert.equal(addressThrottleKey('unknown'), 'unknown');
    assert.equal(addressThrottleKey(''), '');
  });

  it("at login, new addresses from the attacker's IPv6 /64 do not buy new attempts; another network is unaffected", async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    await steady.register('anna@example.com');
    const statuses: number[] = [];
    for (let n = 1; n <= THROTTLE_RULES.loginPerAddress.capacity + 1; n++) {
      const attacker = steady.client();
      attacker.remoteAddress = `2001:db8:bad:1::${n.toString(16)}`;
      statuses.push((await attacker.post('/api/login', { email: 'anna@example.com', password: 'guess' })).status);
    }
    assert.deepEqual(statuses, [...Array<number>(THROTTLE_RULES.loginPerAddress.capacity).fill(401), 429]);
    const owner = steady.client();
    owner.remoteAddress = '2001:db8:600d:1::1';
    assert.equal((await owner.post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 200);
  });
});

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  const loginBody = { email: 'anna@example.com', password: 'guess' };

  async function loginBucketKeys(steady: Awaited<ReturnType<typeof createTestApp>>): Promise<string[]> {
    const rows = await steady.deps.db
      .selectFrom('throttle_buckets')
      .select('key')
      .where('key', 'like', 'loginPerAddress:%')
      .execute();
    return rows.map((row) => row.key).sort();
  }

  it('unset: X-Forwarded-For is ignored, the throttle follows the socket address', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    await steady.register('anna@example.com');
    const attacker = steady.client();
    attacker.remoteAddress = '203.0.113.66';
    const statuses: number[] = [];
    for (let n = 1; n <= THROTTLE_RULES.loginPerAddress.capacity + 1; n++) {
      statuses.push((await attacker.post('/api/login', loginBody, { 'x-forwarded-for': `198.51.100.${n}` })).status);
    }
    assert.deepEqual(statuses, [...Array<number>(THROTTLE_RULES.loginPerAddress.capacity).fill(401), 429]);
    assert.deepEqual(await loginBucketKeys(steady), ['loginPerAddress:203.0.113.66']);
  });

  it('set to the proxy: the address comes from the header, and a spoofed leftmost entry buys nothing', async (t) => {
    const steady = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    t.after(() => steady.close());
    await steady.register('anna@example.com');
    const viaProxy = () => {
      const client = steady.client();
      client.remoteAddress = '127.0.0.1';
      return client;
    };
    // The proxy appends the address it saw to whatever the client sent: "<spoof>, <real client>".
    const attacker = viaProxy();
    const statuses: number[] = [];
    for (let n = 1; n <= THROTTLE_RULES.loginPerAddress.capacity + 1; n++) {
      statuses.push(
        (await attacker.post('/api/login', loginBody, { 'x-forwarded-for': `198.51.100.${n}, 203.0.113.66` })).status,
      );
    }
    assert.deepEqual(statuses, [...Array<number>(THROTTLE_RULES.loginPerAddress.capacity).fill(401), 429]);
    assert.deepEqual(await loginBucketKeys(steady), ['loginPerAddress:203.0.113.66']);

    // Another client behind the same proxy has its own bucket.
    const owner = viaProxy();
    const ownerLogin = await owner.post(
      '/api/login',
      { email: 'anna@example.com', password: PASSWORD },
      { 'x-forwarded-for': '192.0.2.10' },
    );
    assert.equal(ownerLogin.status, 200);
    assert.deepEqual(await loginBucketKeys(steady), ['loginPerAddress:192.0.2.10', 'loginPerAddress:203.0.113.66']);
  });

  it('set to the proxy: a client that is not the proxy cannot name itself by the header', async (t) => {
    const steady = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    t.after(() => steady.close());
    const direct = steady.client();
    direct.remoteAddress = '203.0.113.5';
    assert.equal((await direct.post('/api/login', loginBody, { 'x-forwarded-for': '198.51.100.1' })).status, 401);
    assert.deepEqual(await loginBucketKeys(steady), ['loginPerAddress:203.0.113.5']);
  });
});
