import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesSearch, searchKey } from '../../src/web/search-text.js';

test('a search key drops case and accents, and writes ł, ß, ø, đ, æ, œ as plain letters', () => {
  assert.equal(searchKey('Renée MÜLLER'), 'renee muller');
  assert.equal(searchKey('Łucja Żółć'), 'lucja zolc');
  assert.equal(searchKey('Grüße aus der Straße'), 'grusse aus der strasse');
  assert.equal(searchKey('Søren Đorđević Æbeltoft Œuvre'), 'soren dordevic aebeltoft oeuvre');
});

test('a search matches when every typed word occurs, in any order, accents and case aside', () => {
  const key = searchKey('jose@example.com José Álvarez');
  assert.ok(matchesSearch(key, 'ÁLVAREZ jose'));
  assert.ok(matchesSearch(key, '  example  '));
  assert.ok(!matchesSearch(key, 'alvarez maria'));
});
