import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseStart, serverTimeZone } from '../../../src/server/goals/start.js';
import { createTestApp } from '../../support/app.js';

const NOW_MS = Date.UTC(2026, 0, 15, 9, 0, 0);

test('dates and date-times without a zone keep their wall-clock time as written, in any server zone', () => {
  const cases: Record<string, string> = {
    '2026-01-15': '2026-01-15 00:00:00',
    '2026-01-15T07:05': '2026-01-15 07:05:00',
    '2026-01-15 07:05': '2026-01-15 07:05:00',
    '2026-01-15T07:05:09': '2026-01-15 07:05:09',
    '2026-01-15 23:59:59': '2026-01-15 23:59:59',
    '2026-01-15T07:05:09.987': '2026-01-15 07:05:09',
    '2026-01-15t07:05:09': '2026-01-15 07:05:09',
    '  2026-01-15 07:05  ': '2026-01-15 07:05:00',
    '2024-02-29': '2024-02-29 00:00:00',
    '2000-02-29 12:00': '2000-02-29 12:00:00',
    // Inside Berlin's spring-forward gap: still kept as written, never shifted.
    '2026-03-29 02:30': '2026-03-29 02:30:00',
  };
  for (const zone of ['UTC', 'Europe/Berlin', 'America/Los_Angeles']) {
    for (const [input, expected] of Object.entries(cases)) {
      assert.equal(parseStart(input, NOW_MS, zone), expected, `${input} in ${zone}`);
    }
  }
});

test('zoned date-times are converted to the server zone', () => {
  const cases: Array<[string, string, string]> = [
    ['2026-01-15T07:05:09Z', 'UTC', '2026-01-15 07:05:09'],
    ['2026-01-15T07:05:09z', 'UTC', '2026-01-15 07:05:09'],
    ['2026-01-15T07:05:09.123Z', 'UTC', '2026-01-15 07:05:09'],
    ['2026-01-15T07:05:09Z', 'Europe/Berlin', '2026-01-15 08:05:09'],
    ['2026-07-01T12:00:00Z', 'Europe/Berlin', '2026-07-01 14:00:00'],
    ['2026-07-01 12:00Z', 'Europe/Berlin', '2026-07-01 14:00:00'],
    ['2026-01-15T10:00:00+05:30', 'UTC', '2026-01-15 04:30:00'],
    ['2026-01-15T10:00+0530', 'UTC', '2026-01-15 04:30:00'],
    ['2026-01-15T10:00:00-08', 'UTC', '2026-01-15 18:00:00'],
    ['2026-01-15T10:00:00+01:00', 'Europe/Berlin', '2026-01-15 10:00:00'],
    ['2026-01-01T00:30:00+01:00', 'UTC', '2025-12-31 23:30:00'],
    ['2026-12-31T23:30:00-01:00', 'Europe/Berlin', '2027-01-01 01:30:00'],
    ['2026-03-29T01:30:00Z', 'Europe/Berlin', '2026-03-29 03:30:00'],
    ['2026-01-15T12:00:00Z', 'America/Los_Angeles', '2026-01-15 04:00:00'],
    ['2024-02-29T23:00:00Z', 'Asia/Tokyo', '2024-03-01 08:00:00'],
  ];
  for (const [input, zone, expected] of cases)
    assert.equal(parseStart(input, NOW_MS, zone), expected, `${input} in ${zone}`);
});

test('anything unparsable means now, in the server zone', () => {
  const unparsable: unknown[] = [
    undefined,
    null,
    123,
    NOW_MS,
    true,
    {},
    ['2026-01-15'],
    '',
    '   ',
    'now',
    'tomorrow',
    'Thu Jan 15 2026',
    '15.01.2026',
    '2026/01/15',
    '20260115',
    '2026-1-15',
    '2026-01-5',
    '2026-02-30',
    '2025-02-29',
    '2100-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-01-32',
    '0999-01-01',
    '+02026-01-15',
    '2026-01-15T24:00',
    '2026-01-15T10:60',
    '2026-01-15T10:00:60',
    '2026-01-15T10',
    '2026-01-15T1:00',
    '2026-01-15Z',
    '2026-01-15T10:00+24:00',
    '2026-01-15T10:00+01:60',
    '2026-01-15T10:00 +01:00',
    '2026-01-15T10:00:00.Z',
    '2026-01-15T10:00:00Zjunk',
    '9999-12-31T23:30:00-01:00',
  ];
  for (const input of unparsable) {
    assert.equal(parseStart(input, NOW_MS, 'UTC'), '2026-01-15 09:00:00', JSON.stringify(input));
    assert.equal(parseStart(input, NOW_MS, 'Europe/Berlin'), '2026-01-15 10:00:00', JSON.stringify(input));
  }
  assert.equal(parseStart('x', Date.UTC(2026, 6, 1, 22, 30, 5), 'Europe/Berlin'), '2026-07-02 00:30:05');
});

test('the server zone is TZ when it names a known zone, otherwise UTC', () => {
  assert.equal(serverTimeZone(undefined), 'UTC');
  assert.equal(serverTimeZone(''), 'UTC');
  assert.equal(serverTimeZone('  '), 'UTC');
  assert.equal(serverTimeZone('Not/A_Zone'), 'UTC');
  assert.equal(serverTimeZone('Europe/Berlin'), 'Europe/Berlin');
  assert.equal(serverTimeZone(':Europe/Berlin'), 'Europe/Berlin');
  assert.equal(serverTimeZone('UTC'), 'UTC');
});

test('POST /api/goals applies the start rules (server zone of this test process: UTC)', async (t) => {
  assert.equal(process.env.TZ ?? '', '', 'this test expects no TZ; the child-process test covers one');
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const cases: Array<[unknown, string]> = [
    ['2026-02-01', '2026-02-01 00:00:00'],
    ['2026-02-01T06:15', '2026-02-01 06:15:00'],
    ['2026-02-01 06:15:30+02:00', '2026-02-01 04:15:30'],
    ['2026-02-30', '2026-01-15 09:00:00'],
    [42, '2026-01-15 09:00:00'],
    [null, '2026-01-15 09:00:00'],
  ];
  for (const [start, expected] of cases) {
    const response = await anna.post('/api/goals', { name: 'Start', start });
    assert.equal(response.status, 200);
    assert.equal(response.body.start, expected, JSON.stringify(start));
  }
  steady.clock.advance(3_600_000);
  assert.equal((await anna.post('/api/goals', { name: 'Later' })).body.start, '2026-01-15 10:00:00');
  const listed = (await anna.get('/api/goals')).body.map((g: { start: string }) => g.start);
  assert.deepEqual(listed, [...cases.map(([, expected]) => expected), '2026-01-15 10:00:00']);
});

test("a server run with TZ=Europe/Berlin converts zoned starts to Berlin time and uses Berlin's now", async () => {
  const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'starts-in-server-zone.ts');
  const inputs = ['2026-01-15T07:05:09Z', '2026-07-01T12:00:00+00:00', '2026-01-15 07:05', 'garbage', null];
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(inputs)], {
    env: { ...process.env, TZ: 'Europe/Berlin' },
  });
  assert.deepEqual(JSON.parse(stdout.trim().split('\n').at(-1)!), {
    '2026-01-15T07:05:09Z': '2026-01-15 08:05:09',
    '2026-07-01T12:00:00+00:00': '2026-07-01 14:00:00',
    '2026-01-15 07:05': '2026-01-15 07:05:00',
    garbage: '2026-01-15 10:00:00',
    null: '2026-01-15 10:00:00',
  });
});

test("a zoned or missing start is read in the person's own time zone once they have set one (decision 0210)", async (t) => {
  assert.equal(process.env.TZ ?? '', '', 'this test expects a server in UTC');
  const steady = await createTestApp();
  t.after(() => steady.close());
  // 23:00 UTC on the 27th is 08:00 on the 28th in Tokyo: a goal made then starts on the 28th for Kenji.
  steady.clock.advance(Date.UTC(2026, 10, 27, 23, 0, 0) - steady.clock.now());
  const kenji = await steady.register('kenji@example.com');
  const startOf = async (start: unknown) => (await kenji.post('/api/goals', { name: 'Walk', start })).body.start;
  assert.equal(await startOf(undefined), '2026-11-27 23:00:00', 'no zone set yet: the server zone');
  assert.equal((await kenji.patch('/api/preferences', { timezone: 'Asia/Tokyo' })).status, 200);
  const cases: Array<[unknown, string]> = [
    [undefined, '2026-11-28 08:00:00'],
    ['garbage', '2026-11-28 08:00:00'],
    ['2026-11-28T00:30:00+09:00', '2026-11-28 00:30:00'],
    ['2026-11-27T23:00:00Z', '2026-11-28 08:00:00'],
    // Without a zone the wall clock stays as written, whatever the person's zone (decision 0031).
    ['2026-11-28', '2026-11-28 00:00:00'],
    ['2026-11-27 19:00', '2026-11-27 19:00:00'],
  ];
  for (const [start, expected] of cases) assert.equal(await startOf(start), expected, JSON.stringify(start));
});
