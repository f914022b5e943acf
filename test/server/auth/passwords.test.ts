import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePointLength } from '../../../src/common/text.js';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../../src/server/auth/passwords.js';

/** `$argon2id$v=19$m=19456,t=2,p=1$`: algorithm, version and cost, everything before salt and digest. */
function costPrefix(hash: string): string {
  return hash.split('$').slice(0, 4).join('$');
}

describe('passwords', () => {
  it('hashes with argon2id at m=19456 KiB, t=2, p=1, salted, and verifies only the exact password', async () => {
    const first = await hashPassword(' secret ');
    const second = await hashPassword(' secret ');
    assert.equal(costPrefix(first), '$argon2id$v=19$m=19456,t=2,p=1');
    assert.notEqual(first, second);
    assert.equal(await verifyPassword(first, ' secret '), true);
    assert.equal(await verifyPassword(first, 'secret'), false);
    assert.equal(await verifyPassword('not a hash', 'secret'), false);
  });

  // The timing of login for an unknown e-mail: the route awaits verifyAgainstDummy where it would await
  // verifyPassword (accounts/routes.ts). That costs the same only while the dummy hash has the same cost.
  it('the dummy hash for unknown e-mail addresses has exactly the cost of a real hash', async () => {
    assert.equal(costPrefix(DUMMY_PASSWORD_HASH), costPrefix(await hashPassword('anything')));
  });

  it('password (and name, note) lengths count code points, as a user counts characters', () => {
    assert.equal(codePointLength('😀'.repeat(7)), 7);
    assert.equal(codePointLength('abc def '), 8);
    assert.equal(codePointLength(''), 0);
  });
});
