/**
 * Two spellings of one time zone are one zone (decision 0221): the server stores a zone as Node's Intl spells it
 * (`Asia/Calcutta`), a browser may report another (`Asia/Kolkata`), and Settings must not offer "this device's
 * zone" for the zone the account already has.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameTimeZone } from '../../src/common/reminders.js';

/** A runtime that keeps each valid name as given, as ECMA-402 now asks of `resolvedOptions().timeZone`. */
const keptAsGiven = (name: string) => name;

const ALIASES = [
  ['Asia/Kolkata', 'Asia/Calcutta'],
  ['Europe/Kyiv', 'Europe/Kiev'],
  ['Asia/Kathmandu', 'Asia/Katmandu'],
  ['America/Nuuk', 'America/Godthab'],
  ['Etc/UTC', 'UTC'],
] as const;

const DIFFERENT = [
  // Equal clocks since 1980, not before: two zones.
  ['Europe/Berlin', 'Europe/Paris'],
  ['Europe/Warsaw', 'Europe/Berlin'],
  ['America/New_York', 'America/Chicago'],
  // The same offset in winter, summer time on other days.
  ['Europe/London', 'Africa/Abidjan'],
] as const;

test('a zone and its alias are one zone, whether the runtime canonicalizes names or keeps them as given', () => {
  for (const [a, b] of ALIASES) {
    assert.equal(sameTimeZone(a, b), true, `${a} = ${b}`);
    assert.equal(sameTimeZone(b, a, keptAsGiven), true, `${b} = ${a}, names kept as given`);
  }
});

test('zones whose clocks differ at some time since 1970 are different zones', () => {
  for (const [a, b] of DIFFERENT) {
    assert.equal(sameTimeZone(a, b), false, `${a} != ${b}`);
    assert.equal(sameTimeZone(a, b, keptAsGiven), false, `${a} != ${b}, names kept as given`);
  }
  assert.equal(sameTimeZone('Europe/Berlin', 'Not/A_Zone'), false);
});
