/**
 * The e-mail rule shared by server and web app (decision 0194): the local part is RFC 5321's dot-string, because
 * mail servers refuse the rest ("501 Bad recipient address syntax") and such an account never got its reset mail.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAccountEmail, isValidEmail } from '../../../src/common/email.js';

const REFUSED_BY_MAIL_SERVERS = [
  'a..b@example.org',
  '.ab@example.org',
  'ab.@example.org',
  'a.b..c@example.org',
  '.@example.org',
];

test('a dot first, last or twice in a row in the local part is refused', () => {
  for (const address of REFUSED_BY_MAIL_SERVERS) assert.equal(isValidEmail(address), false, address);
});

test('addresses valid before stay valid', () => {
  for (const address of [
    'a.b@example.org',
    'first.middle.last@example.org',
    "o'brien+tag@example.co.uk",
    'x_y-z.1@sub.example.com',
    "!#$%&'*+/=?^_`{|}~-@example.org",
    ` ${'l'.repeat(64)}@example.org `,
  ])
    assert.equal(isValidEmail(address), true, address);
});

test('the rest of the rule is unchanged', () => {
  for (const address of ['a@b', 'a b@example.com', '@example.com', `${'l'.repeat(65)}@example.org`, 'a@-x.org'])
    assert.equal(isValidEmail(address), false, address);
});

test('an account registered before the rule keeps an address ADMIN_EMAIL may name', () => {
  for (const address of REFUSED_BY_MAIL_SERVERS) assert.equal(isAccountEmail(address), true, address);
  assert.equal(isAccountEmail('a b@example.com'), false);
});
