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
    for (const ip of ['2001:db8:0:1::1', '2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:DB8:0:1:0:0:0:2', '2001:db8:0:1::1.2.3.4', '2001:db8:0:1::9%eth0']) {
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

  it('at login, new addresses from the attacker\'s IPv6 /64 do not buy new attempts; another network is unaffected', async (t) => {
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
