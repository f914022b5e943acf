import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { HOUR, MINUTE } from '../../../src/server/clock.js';
import { openDatabase } from '../../../src/server/db/open.js';
import { smtpMailer } from '../../../src/server/mail/transport.js';
import type { Mailer } from '../../../src/server/mail/mailer.js';
import { MAX_ATTEMPTS, REMINDER_CHECK_MS, ReminderScheduler } from '../../../src/server/reminders/scheduler.js';
import { createReminderScheduler } from '../../../src/server/reminders/start.js';
import { claimDueReminder } from '../../../src/server/reminders/store.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';
import { loggedDatabase } from '../../support/logged-database.js';

interface Logged {
  level: 'info' | 'warn' | 'error';
  details: object;
  message: string;
}

function recordingLog() {
  const lines: Logged[] = [];
  const at = (level: Logged['level']) => (details: object, message: string) => lines.push({ level, details, message });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

async function setUp(t: TestContext, mailer?: Mailer) {
  // METRICS_TOKEN: the reminder counters are read from the registry.
  const steady = await createTestApp({ METRICS_TOKEN: 'metrics-token-0123456789' });
  t.after(() => steady.close());
  const { lines, log } = recordingLog();
  const scheduler = createReminderScheduler(mailer ? { ...steady.deps, mailer } : steady.deps, log);
  return { steady, scheduler, lines };
}

/**
 * A user in Berlin (or `zone`) with a goal of 50 reps a day and an e-mail reminder. The reminder is set by the start of the
 * goal's first day (the clock is put back there for the PUT when it is later), as a person sets one up before it is
 * to ring: one set after its time that day would first ring the next day (decision 0177).
 */
async function berlinGoal(
  steady: TestApp,
  email: string,
  goal: { start: string; days: number; time: string; locale?: string; zone?: string },
): Promise<{ client: TestClient; id: string }> {
  const client = await steady.register(email);
  if (goal.locale) await client.patch('/api/me', { locale: goal.locale });
  const timezone = goal.zone ?? 'Europe/Berlin';
  assert.equal((await client.patch('/api/preferences', { timezone })).status, 200);
  const created = await client.post('/api/goals', {
    name: 'Push-ups',
    unit: 'reps',
    daily: 50,
    days: goal.days,
    start: goal.start,
  });
  assert.equal(created.status, 200, created.text);
  const id = created.body.id as string;
  const now = steady.clock.now();
  setClock(steady, Math.min(now, berlinWinter(goal.start, '00:00')));
  assert.equal((await client.put(`/api/goals/${id}/reminder`, { time: goal.time, channel: 'email' })).status, 200);
  setClock(steady, now);
  return { client, id };
}

/** Berlin is UTC+1 in winter, UTC+2 in summer. */
const berlinWinter = (date: string, time: string) => Date.parse(`${date}T${time}:00+01:00`);
const berlinSummer = (date: string, time: string) => Date.parse(`${date}T${time}:00+02:00`);

/** A header field of a raw mail, unfolded. */
function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  assert.ok(line, `no ${name} header`);
  return line.slice(name.length + 1).trim();
}

function setClock(steady: TestApp, at: number): void {
  steady.clock.advance(at - steady.clock.now());
}

test('started, the scheduler checks by itself: a due reminder goes out at the next check, with no one calling', async (t) => {
  const { steady, scheduler } = await setUp(t);
  await berlinGoal(steady, 'anna@example.com', { start: '2026-01-10', days: 30, time: '19:30' });
  setClock(steady, berlinWinter('2026-01-15', '19:00'));
  scheduler.start(20);
  t.after(() => scheduler.stop());
  assert.equal(await scheduler.check(), 0, 'not due yet');
  // The clock passes the time; the interval's own check (every REMINDER_CHECK_MS = 15 s in the server) sends it.
  setClock(steady, berlinWinter('2026-01-15', '19:30'));
  assert.match((await steady.smtp.nextMail()).decoded, /50\u00a0reps left today \(0 of 50\)/);
  assert.ok(REMINDER_CHECK_MS <= 60_000, 'a due reminder is sent within 60 s');
});

test('a check costs the same few statements however many due reminders have their target met', async (t) => {
  const { steady } = await setUp(t);
  const logged = loggedDatabase(steady.deps.config.database);
  // Closed here, not in `after`: the test app's `after`, registered first, drops the database under an open pool.
  try {
    const scheduler = createReminderScheduler({ ...steady.deps, db: logged.db }, recordingLog().log);
    const statementsOfACheck = async () => {
      logged.statements.length = 0;
      assert.equal(await scheduler.check(), 0, 'every target is met: nothing to send');
      return logged.statements.length;
    };
    const metGoals = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const goal = { start: '2026-01-10', days: 30, time: '08:00' };
        const { client, id } = await berlinGoal(steady, `met${i}@example.com`, goal);
        assert.equal((await client.post(`/api/goals/${id}/sets/2026-01-15`, { amount: 50 })).status, 200);
      }
    };
    setClock(steady, berlinWinter('2026-01-15', '09:00'));
    await metGoals(0, 2);
    const withTwo = await statementsOfACheck();
    await metGoals(2, 8);
    steady.clock.advance(15_000);
    const withEight = await statementsOfACheck();
    assert.equal(withEight, withTwo, `${withTwo} statements with 2 met reminders, ${withEight} with 8`);
    assert.equal(steady.smtp.mails.length, 0);
  } finally {
    await logged.close();
  }
});

test('an archived goal reminds no one until it is restored', async (t) => {
  const { steady, scheduler } = await setUp(t);
  const { client, id } = await berlinGoal(steady, 'anna@example.com', { start: '2026-01-10', days: 30, time: '19:30' });
  assert.equal((await client.post(`/api/goals/${id}/archive`)).status, 200);
  setClock(steady, berlinWinter('2026-01-15', '19:30'));
  assert.equal(await scheduler.check(), 0, 'archived: not reminded');
  assert.equal((await client.post(`/api/goals/${id}/unarchive`)).status, 200);
  steady.clock.advance(MINUTE);
  assert.equal(await scheduler.check(), 1, 'restored: reminded again');
  assert.match((await steady.smtp.nextMail()).decoded, /50\u00a0reps left today \(0 of 50\)/);
});

test('due at the time in the user zone, not before; once per day; the mail says what is left, links BASE_URL and can be turned off', async (t) => {
  const { steady, scheduler } = await setUp(t);
  const { client, id } = await berlinGoal(steady, 'anna@example.com', { start: '2026-01-10', days: 30, time: '19:30' });
  await client.post(`/api/goals/${id}/sets/2026-01-15`, { amount: 35 });

  setClock(steady, berlinWinter('2026-01-15', '19:29'));
  assert.equal(await scheduler.check(), 0, 'not due at 19:29 Berlin');
  assert.equal(steady.smtp.mails.length, 0);

  steady.clock.advance(MINUTE);
  assert.equal(await scheduler.check(), 1, 'due at 19:30 Berlin (18:30 UTC)');
  const mail = await steady.smtp.nextMail();
  assert.deepEqual(mail.to, ['anna@example.com']);
  assert.match(mail.decoded, /15\u00a0reps left today \(35 of 50\)/);
  assert.match(mail.decoded, new RegExp(`http://steady\\.test/#/goal/${id}`));
  assert.match(header(mail.raw, 'List-Unsubscribe'), /^<http:\/\/steady\.test\/api\/reminders\/off\/[^>]+>$/);
  assert.equal(header(mail.raw, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');

  for (let i = 0; i < 5; i++) {
    steady.clock.advance(15_000);
    assert.equal(await scheduler.check(), 0);
  }
  assert.equal(steady.smtp.mails.length, 1, 'exactly once that day');
  assert.equal(
    await steady.deps.metrics
      .registry!.getSingleMetricAsString('steady_reminders_total')
      .then((text) => /result="sent",channel="email"} 1/.test(text)),
    true,
  );

  // The next day: the target is met before 19:30, so no reminder.
  await client.post(`/api/goals/${id}/sets/2026-01-16`, { amount: 50 });
  setClock(steady, berlinWinter('2026-01-16', '19:31'));
  assert.equal(await scheduler.check(), 0, 'target met: nothing to remind');
  // The day after, with 49 of 50: still below the target.
  await client.post(`/api/goals/${id}/sets/2026-01-17`, { amount: 49 });
  setClock(steady, berlinWinter('2026-01-17', '20:00'));
  assert.equal(await scheduler.check(), 1);
  assert.match((await steady.smtp.nextMail(1)).decoded, /1\u00a0rep left today \(49 of 50\)/);

  // The List-Unsubscribe link turns it off: no reminder the day after.
  const link = new URL(header(mail.raw, 'List-Unsubscribe').slice(1, -1)).pathname;
  const off = await steady.client().request('POST', link, 'List-Unsubscribe=One-Click', {
    origin: undefined,
    'content-type': 'application/x-www-form-urlencoded',
  });
  assert.equal(off.status, 200);
  setClock(steady, berlinWinter('2026-01-18', '20:00'));
  assert.equal(await scheduler.check(), 0);
});

/** Warsaw is UTC+1 in winter. */
const warsawWinter = (date: string, time: string) => Date.parse(`${date}T${time}:00+01:00`);

/** The names of the goals the mails received so far remind of (by the goal link in each), sorted. */
async function remindedGoals(steady: TestApp, client: TestClient): Promise<string[]> {
  const goals = (await client.get('/api/goals')).body as Array<{ id: string; name: string }>;
  const goalOf = (text: string) => goals.find(({ id }) => new RegExp(`/#/goal/${id}(?!\\d)`).test(text))?.name;
  return steady.smtp.mails.map((mail) => goalOf(mail.decoded) ?? '?').sort();
}

// Decision 0177: the tester set a 07:30 reminder at 16:09 in Warsaw and had the mail within seconds.
test('a reminder set after its time today first rings the next day (new, time changed, off and on again); one missed while the server was down still rings late', async (t) => {
  const { steady, scheduler } = await setUp(t);
  const client = await steady.register('rita@example.com');
  assert.equal((await client.patch('/api/preferences', { timezone: 'Europe/Warsaw' })).status, 200);
  const goal = async (name: string) => {
    const created = await client.post('/api/goals', { name, unit: 'reps', daily: 22, days: 30, start: '2026-01-10' });
    assert.equal(created.status, 200, created.text);
    return created.body.id as string;
  };
  const remind = async (id: string, time: string, channel: 'email' | 'push' = 'email') =>
    assert.equal((await client.put(`/api/goals/${id}/reminder`, { time, channel })).status, 200);
  const [fresh, moved, reEnabled, savedAgain, newChannel] = [
    await goal('Fresh'),
    await goal('Moved'),
    await goal('ReEnabled'),
    await goal('SavedAgain'),
    await goal('NewChannel'),
  ];
  // 06:00: four reminders are set up in the morning, before their time.
  setClock(steady, warsawWinter('2026-01-15', '06:00'));
  await remind(moved, '20:00');
  await remind(reEnabled, '07:30');
  await remind(savedAgain, '07:30');
  await remind(newChannel, '07:30', 'push');
  // No check runs from 06:00 to 16:09: the server is down over 07:30.
  setClock(steady, warsawWinter('2026-01-15', '16:05'));
  await remind(savedAgain, '07:30'); // the form saved again, unchanged
  await remind(newChannel, '07:30', 'email'); // only the channel changed
  assert.equal((await client.delete(`/api/goals/${reEnabled}/reminder`)).status, 200);
  setClock(steady, warsawWinter('2026-01-15', '16:09'));
  await remind(fresh, '07:30'); // new
  await remind(moved, '07:30'); // its time changed
  await remind(reEnabled, '07:30'); // turned on again
  // The two whose 07:30 the server missed while down ring now, late, as before; the three set after 07:30 do not.
  assert.equal(await scheduler.check(), 2);
  for (let i = 0; i < 4; i++) {
    steady.clock.advance(REMINDER_CHECK_MS);
    assert.equal(await scheduler.check(), 0);
  }
  assert.deepEqual(await remindedGoals(steady, client), ['NewChannel', 'SavedAgain']);
  setClock(steady, warsawWinter('2026-01-15', '23:59'));
  assert.equal(await scheduler.check(), 0, 'not later that day either');

  // The next 07:30: all five.
  setClock(steady, warsawWinter('2026-01-16', '07:29'));
  assert.equal(await scheduler.check(), 0);
  setClock(steady, warsawWinter('2026-01-16', '07:30'));
  assert.equal(await scheduler.check(), 5);
  assert.deepEqual(await remindedGoals(steady, client), [
    'Fresh',
    'Moved',
    'NewChannel',
    'NewChannel',
    'ReEnabled',
    'SavedAgain',
    'SavedAgain',
  ]);

  // Set within its own minute (07:30:40 for 07:30), it has not passed: it rings at once.
  const onTheMinute = await goal('OnTheMinute');
  setClock(steady, warsawWinter('2026-01-17', '07:30') + 40_000);
  await remind(onTheMinute, '07:30');
  steady.clock.advance(REMINDER_CHECK_MS);
  assert.equal(await scheduler.check(), 6, 'the five of the 17th and the new one');
});

test('reminders imported after their time today first ring the next day', async (t) => {
  const { steady, scheduler } = await setUp(t);
  const client = await steady.register('rita@example.com');
  assert.equal((await client.patch('/api/preferences', { timezone: 'Europe/Warsaw' })).status, 200);
  const goal = { unit: 'reps', daily: 22, days: 30, start: '2026-01-10 00:00:00', sets: {} };
  const document = {
    format: 'steady-export',
    version: 1,
    goals: [
      { ...goal, id: '1', name: 'Morning', reminder: { time: '07:30', channel: 'email' } },
      { ...goal, id: '2', name: 'Evening', reminder: { time: '19:00', channel: 'email' } },
    ],
  };
  setClock(steady, warsawWinter('2026-01-15', '16:09'));
  const imported = await client.post('/api/import', document);
  assert.equal(imported.status, 200, imported.text);
  assert.equal(await scheduler.check(), 0, 'the 07:30 reminder waits for tomorrow');
  setClock(steady, warsawWinter('2026-01-15', '19:00'));
  assert.equal(await scheduler.check(), 1, 'the 19:00 one rings today');
  setClock(steady, warsawWinter('2026-01-16', '07:30'));
  assert.equal(await scheduler.check(), 1);
  assert.deepEqual(await remindedGoals(steady, client), ['Evening', 'Morning']);
});

test('the last day of the goal gets its reminder, the day after does not; nor the day before the start', async (t) => {
  const { steady, scheduler } = await setUp(t);
  await berlinGoal(steady, 'anna@example.com', { start: '2026-01-10', days: 6, time: '08:00' });
  setClock(steady, berlinWinter('2026-01-09', '09:00'));
  assert.equal(await scheduler.check(), 0, 'before the start');
  setClock(steady, berlinWinter('2026-01-10', '09:00'));
  assert.equal(await scheduler.check(), 1, 'first day');
  setClock(steady, berlinWinter('2026-01-15', '09:00'));
  assert.equal(await scheduler.check(), 1, 'last day (start + 6 - 1)');
  setClock(steady, berlinWinter('2026-01-16', '09:00'));
  assert.equal(await scheduler.check(), 0, 'the goal is over');
});

test('DST in Europe/Berlin: a time skipped in spring is sent at 03:00; a time passed twice in autumn is sent once', async (t) => {
  const { steady, scheduler } = await setUp(t);
  await berlinGoal(steady, 'anna@example.com', { start: '2026-03-20', days: 300, time: '02:30' });

  // 2026-03-29: clocks go from 02:00 CET to 03:00 CEST, 02:30 never happens.
  setClock(steady, berlinWinter('2026-03-29', '01:59'));
  assert.equal(await scheduler.check(), 0);
  setClock(steady, Date.parse('2026-03-29T01:00:00Z'));
  assert.equal(await scheduler.check(), 1, '03:00 CEST is past 02:30');
  steady.clock.advance(HOUR);
  assert.equal(await scheduler.check(), 0);

  // 2026-10-25: clocks go from 03:00 CEST back to 02:00 CET, 02:30 happens twice.
  setClock(steady, berlinSummer('2026-10-25', '02:29'));
  assert.equal(await scheduler.check(), 0);
  setClock(steady, berlinSummer('2026-10-25', '02:30'));
  assert.equal(await scheduler.check(), 1, 'first 02:30 (CEST)');
  setClock(steady, berlinWinter('2026-10-25', '02:30'));
  assert.equal(await scheduler.check(), 0, 'second 02:30 (CET): already sent');
  assert.equal(steady.smtp.mails.length, 2);
});

/**
 * Checks every 10 minutes from `from` to `to` (ISO instants); answers the mails to `to` that went out, each as
 * `<instant of the check> <address>`.
 */
async function ringsBetween(steady: TestApp, scheduler: ReminderScheduler, from: string, to: string, only?: string[]) {
  const rings: string[] = [];
  for (let at = Date.parse(from); at < Date.parse(to); at += 10 * MINUTE) {
    setClock(steady, at);
    const before = steady.smtp.mails.length;
    await scheduler.check();
    for (const mail of steady.smtp.mails.slice(before)) {
      if (!only || only.includes(mail.to.join())) rings.push(`${new Date(at).toISOString()} ${mail.to.join()}`);
    }
  }
  return rings;
}

test('DST in Europe/Warsaw (2026, 2027) and America/New_York, checked all day: a skipped time rings once at 03:00, a doubled one once at its first pass', async (t) => {
  const { steady, scheduler } = await setUp(t);
  const warsaw = ['wanda@example.com'];
  const newYork = ['nina@example.com', 'ned@example.com'];
  await berlinGoal(steady, warsaw[0]!, { start: '2026-10-01', days: 400, time: '02:30', zone: 'Europe/Warsaw' });
  await berlinGoal(steady, newYork[0]!, { start: '2026-10-01', days: 400, time: '02:30', zone: 'America/New_York' });
  await berlinGoal(steady, newYork[1]!, { start: '2026-10-01', days: 400, time: '01:30', zone: 'America/New_York' });
  // Each window is the local day of the change, midnight to midnight, as UTC instants.
  // Warsaw 2026-10-25 and 2027-10-31: 03:00 CEST goes back to 02:00 CET; the first 02:30 is 00:30 UTC.
  assert.deepEqual(await ringsBetween(steady, scheduler, '2026-10-24T22:00Z', '2026-10-25T23:00Z', warsaw), [
    '2026-10-25T00:30:00.000Z wanda@example.com',
  ]);
  assert.deepEqual(await ringsBetween(steady, scheduler, '2027-10-30T22:00Z', '2027-10-31T23:00Z', warsaw), [
    '2027-10-31T00:30:00.000Z wanda@example.com',
  ]);
  // Warsaw 2027-03-28: 02:00 CET jumps to 03:00 CEST (01:00 UTC); 02:30 never happens.
  assert.deepEqual(await ringsBetween(steady, scheduler, '2027-03-27T23:00Z', '2027-03-28T22:00Z', warsaw), [
    '2027-03-28T01:00:00.000Z wanda@example.com',
  ]);
  // New York 2026-11-01: 02:00 EDT goes back to 01:00 EST; the first 01:30 is 05:30 UTC, the second (06:30) is
  // quiet; 02:30 happens once, in EST (07:30 UTC).
  assert.deepEqual(await ringsBetween(steady, scheduler, '2026-11-01T04:00Z', '2026-11-02T05:00Z', newYork), [
    '2026-11-01T05:30:00.000Z ned@example.com',
    '2026-11-01T07:30:00.000Z nina@example.com',
  ]);
  // New York 2027-03-14: 02:00 EST jumps to 03:00 EDT (07:00 UTC); 01:30 is EST (06:30 UTC).
  assert.deepEqual(await ringsBetween(steady, scheduler, '2027-03-14T05:00Z', '2027-03-15T04:00Z', newYork), [
    '2027-03-14T06:30:00.000Z ned@example.com',
    '2027-03-14T07:00:00.000Z nina@example.com',
  ]);
});

test('a time zone changed in the evening: the reminder rings once per date of the zone the user has, never twice on one date', async (t) => {
  const { steady, scheduler } = await setUp(t);
  // Sessions last a day: the users sign up on the day the test looks at.
  setClock(steady, Date.parse('2026-11-27T08:00:00Z'));
  const goal = { start: '2026-11-01', days: 60, time: '20:00' };
  const wes = await berlinGoal(steady, 'wes@example.com', { ...goal, zone: 'Europe/Warsaw' });
  const eve = await berlinGoal(steady, 'eve@example.com', { ...goal, zone: 'America/New_York' });
  // 20:00 Warsaw (19:00 UTC) rings Wes; at 21:00 Warsaw he moves to New York, where 20:00 of the 27th is to come.
  assert.deepEqual(await ringsBetween(steady, scheduler, '2026-11-27T12:00Z', '2026-11-27T20:00Z'), [
    '2026-11-27T19:00:00.000Z wes@example.com',
  ]);
  assert.equal((await wes.client.patch('/api/preferences', { timezone: 'America/New_York' })).status, 200);
  // At 19:00 New York (00:00 UTC) Eve moves to Warsaw, where it is 01:00 on the 28th: the 27th is over there.
  assert.deepEqual(await ringsBetween(steady, scheduler, '2026-11-27T20:00Z', '2026-11-28T00:00Z'), []);
  assert.equal((await eve.client.patch('/api/preferences', { timezone: 'Europe/Warsaw' })).status, 200);
  // Wes: nothing more on the 27th (01:00 UTC is its 20:00 in New York), then 20:00 New York on the 28th. Eve: 20:00
  // Warsaw on the 28th.
  assert.deepEqual(await ringsBetween(steady, scheduler, '2026-11-28T00:00Z', '2026-11-29T03:00Z'), [
    '2026-11-28T19:00:00.000Z eve@example.com',
    '2026-11-29T01:00:00.000Z wes@example.com',
  ]);
});

test('missed while down: sent at start when its day is not over, never a pile of earlier days; a clock jump is noticed at the next check', async (t) => {
  const { steady, scheduler } = await setUp(t);
  await berlinGoal(steady, 'anna@example.com', { start: '2026-01-01', days: 60, time: '08:00' });
  await berlinGoal(steady, 'ben@example.com', { start: '2026-01-01', days: 60, time: '21:00' });

  // The server was down from the 10th to the 15th, 07:00; the 10th to 14th are never sent.
  setClock(steady, berlinWinter('2026-01-15', '07:00'));
  assert.equal(await scheduler.check(), 0, 'earlier days are not caught up');
  // The machine sleeps from 07:00 to 20:00 (or NTP moves the clock): the first check after it sends Anna's.
  setClock(steady, berlinWinter('2026-01-15', '20:00'));
  assert.equal(await scheduler.check(), 1);
  // The clock jumps back an hour (NTP): nothing twice.
  steady.clock.advance(-HOUR);
  assert.equal(await scheduler.check(), 0);
  setClock(steady, berlinWinter('2026-01-15', '21:00'));
  assert.equal(await scheduler.check(), 1, "Ben's at 21:00");

  // Down from 2026-01-16 07:00 to 23:58: both are still due that day and go out at start; at 00:01 they would not.
  setClock(steady, berlinWinter('2026-01-16', '23:58'));
  const restarted = createReminderScheduler(steady.deps, recordingLog().log);
  assert.equal(await restarted.check(), 2);
  setClock(steady, berlinWinter('2026-01-18', '00:01'));
  assert.equal(await restarted.check(), 0, 'the 17th is over; the 18th is not due yet');
  assert.equal(steady.smtp.mails.length, 4);
});

test('a failed send is tried again a few times, then given up, logged and counted; a success on a retry is one mail', async (t) => {
  let failures = 0;
  const flaky: Mailer = {
    async send() {
      failures++;
      throw new Error('mail server down');
    },
    async verify() {},
  };
  const { steady, scheduler, lines } = await setUp(t, flaky);
  await berlinGoal(steady, 'anna@example.com', { start: '2026-01-01', days: 60, time: '08:00' });
  setClock(steady, berlinWinter('2026-01-15', '08:00'));
  assert.equal(await scheduler.check(), 0);
  assert.equal(await scheduler.check(), 0, 'the retry waits');
  steady.clock.advance(MINUTE);
  assert.equal(await scheduler.check(), 0);
  steady.clock.advance(5 * MINUTE);
  assert.equal(await scheduler.check(), 0);
  steady.clock.advance(HOUR);
  assert.equal(await scheduler.check(), 0);
  assert.equal(failures, MAX_ATTEMPTS);
  assert.equal(lines.filter((line) => line.level === 'warn').length, MAX_ATTEMPTS - 1);
  const gaveUp = lines.filter((line) => line.level === 'error');
  assert.equal(gaveUp.length, 1);
  assert.match(gaveUp[0]!.message, /giving up/);
  assert.match(
    await steady.deps.metrics.registry!.getSingleMetricAsString('steady_reminders_total'),
    /result="failed",channel="email"} 1/,
  );

  // Fails once, then works: one mail.
  let calls = 0;
  const real = steady.deps.mailer;
  const once: Mailer = {
    async send(message) {
      if (++calls === 1) throw new Error('temporary failure');
      await real.send(message);
    },
    verify: () => real.verify(),
  };
  const second = new ReminderScheduler({
    ...(scheduler as unknown as { options: object }).options,
    mailer: once,
  } as never);
  setClock(steady, berlinWinter('2026-01-16', '08:00'));
  assert.equal(await second.check(), 0);
  steady.clock.advance(MINUTE);
  assert.equal(await second.check(), 1);
  steady.clock.advance(MINUTE);
  assert.equal(await second.check(), 0);
  assert.equal(steady.smtp.mails.length, 1);
});

test('two server processes on one database: exactly one mail per goal and day', { timeout: 120_000 }, async (t) => {
  const { steady, scheduler } = await setUp(t);
  const goals = 6;
  for (let i = 0; i < goals; i++) {
    await berlinGoal(steady, `user${i}@example.com`, { start: '2026-01-01', days: 60, time: '08:00' });
  }
  // The second process: its own connection pool and its own SMTP connection to the same receiver.
  const other = await openDatabase(steady.deps.config.database);
  t.after(() => other.close());
  const otherScheduler = createReminderScheduler(
    { ...steady.deps, db: other.db, mailer: smtpMailer(steady.smtp.url, steady.deps.config.mailFrom) },
    recordingLog().log,
  );
  // At the same moment on PostgreSQL; on SQLite in turn, as two connections of one process would block each other's
  // event loop (better-sqlite3 waits synchronously); separate processes on SQLite wait for each other's lock.
  const together = async (schedulers: ReminderScheduler[]) =>
    steady.deps.config.database.kind === 'postgres'
      ? Promise.all(schedulers.map((each) => each.check()))
      : [await schedulers[0]!.check(), await schedulers[1]!.check()];
  for (const day of ['2026-01-15', '2026-01-16']) {
    setClock(steady, berlinWinter(day, '08:00'));
    // Both look at the clock at the same moment, then again at the next check.
    const sent = await together([scheduler, otherScheduler]);
    steady.clock.advance(20_000);
    sent.push(...(await together([otherScheduler, scheduler])));
    assert.equal(
      sent.reduce((a, b) => a + b, 0),
      goals,
      `${day}: ${sent}`,
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(steady.smtp.mails.length, goals * 2);

  // The claim itself, without the scheduler's earlier look at the send log: of several processes claiming the same
  // goal and day, exactly one gets it. On PostgreSQL at once; on SQLite one after the other, because two
  // connections of one process would block each other's event loop (better-sqlite3 waits synchronously).
  const [goalId] = (await steady.deps.db.selectFrom('reminders').select('goal_id').execute()).map((row) => row.goal_id);
  const claim = { goal_id: goalId!, local_date: '2026-01-20', user_id: 1, channel: 'email' };
  const claimers = [steady.deps.db, other.db, steady.deps.db, other.db];
  const attempt = (db: (typeof claimers)[number]) => claimDueReminder(db, claim, 0, () => true);
  const won =
    steady.deps.config.database.kind === 'postgres'
      ? await Promise.all(claimers.map(attempt))
      : [
          await attempt(claimers[0]!),
          await attempt(claimers[1]!),
          await attempt(claimers[2]!),
          await attempt(claimers[3]!),
        ];
  assert.equal(won.filter((day) => day !== null).length, 1, JSON.stringify(won));
  const perRecipient = new Map<string, number>();
  for (const mail of steady.smtp.mails) perRecipient.set(mail.to[0]!, (perRecipient.get(mail.to[0]!) ?? 0) + 1);
  assert.deepEqual([...perRecipient.values()], Array(goals).fill(2));
});
