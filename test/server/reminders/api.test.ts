import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { reminderOffUrl } from '../../../src/server/reminders/unsubscribe-link.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

let steady: TestApp;
let anna: TestClient;
let ben: TestClient;
let annaGoal: string;
let benGoal: string;
before(async () => {
  steady = await createTestApp();
  anna = await steady.register('anna@example.com');
  ben = await steady.register('ben@example.com');
  annaGoal = (await anna.post('/api/goals', { name: 'Push-ups', unit: 'reps', daily: 50, days: 30 })).body.id;
  benGoal = (await ben.post('/api/goals', { name: 'Reading' })).body.id;
});
after(() => steady.close());

test('GET/PATCH /api/preferences: null until set, an IANA name in its canonical spelling, 400 for anything else', async () => {
  assert.deepEqual((await anna.get('/api/preferences')).body, { timezone: null });
  const set = await anna.patch('/api/preferences', { timezone: 'europe/berlin' });
  assert.equal(set.status, 200, set.text);
  assert.deepEqual(set.body, { ok: true, timezone: 'Europe/Berlin' });
  assert.deepEqual((await anna.get('/api/preferences')).body, { timezone: 'Europe/Berlin' });
  // Ben's preferences are his own.
  assert.deepEqual((await ben.get('/api/preferences')).body, { timezone: null });

  for (const timezone of ['Mars/Olympus', '+01:00', '', 'Europe/../etc', 'x'.repeat(100)]) {
    const refused = await anna.patch('/api/preferences', { timezone });
    assert.equal(refused.status, 400, `${timezone}: ${refused.text}`);
    assert.equal(refused.body.code, 'invalid_timezone');
    assert.equal(refused.body.field, 'timezone');
  }
  for (const body of [{}, { timezone: 1 }, { timezone: null }]) {
    assert.equal((await anna.patch('/api/preferences', body)).status, 400, JSON.stringify(body));
  }
  assert.deepEqual((await anna.get('/api/preferences')).body, { timezone: 'Europe/Berlin' });
  assert.equal((await steady.client().get('/api/preferences')).status, 401);
});

test("PUT/DELETE /api/goals/{id}/reminder and GET /api/reminders; 404 for another user's or a missing goal, 400 for a bad time or channel", async () => {
  assert.deepEqual((await anna.get('/api/reminders')).body, []);
  const put = await anna.put(`/api/goals/${annaGoal}/reminder`, { time: '19:30', channel: 'email' });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(put.body, { ok: true });
  assert.deepEqual((await anna.get('/api/reminders')).body, [{ goal_id: annaGoal, time: '19:30', channel: 'email' }]);
  // Setting again replaces it.
  assert.equal((await anna.put(`/api/goals/${annaGoal}/reminder`, { time: '07:05', channel: 'push' })).status, 200);
  assert.deepEqual((await anna.get('/api/reminders')).body, [{ goal_id: annaGoal, time: '07:05', channel: 'push' }]);

  for (const id of [benGoal, '999999', 'abc']) {
    const refused = await anna.put(`/api/goals/${id}/reminder`, { time: '08:00', channel: 'email' });
    assert.equal(refused.status, 404, refused.text);
    assert.equal(refused.body.code, 'goal_not_found');
    assert.equal((await anna.delete(`/api/goals/${id}/reminder`)).status, 404);
  }
  assert.deepEqual((await ben.get('/api/reminders')).body, []);

  for (const [body, code, field] of [
    [{ time: '24:00', channel: 'email' }, 'invalid_reminder_time', 'time'],
    [{ time: '7:05', channel: 'email' }, 'invalid_reminder_time', 'time'],
    [{ time: '07:60', channel: 'email' }, 'invalid_reminder_time', 'time'],
    [{ time: '07:05', channel: 'sms' }, 'invalid_reminder_channel', 'channel'],
  ] as const) {
    const refused = await anna.put(`/api/goals/${annaGoal}/reminder`, body);
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.code, code);
    assert.equal(refused.body.field, field);
  }
  assert.equal((await anna.put(`/api/goals/${annaGoal}/reminder`, { time: '07:05' })).status, 400);

  const removed = await anna.delete(`/api/goals/${annaGoal}/reminder`);
  assert.deepEqual([removed.status, removed.body], [200, { ok: true }]);
  assert.deepEqual((await anna.get('/api/reminders')).body, []);
  // Idempotent.
  assert.equal((await anna.delete(`/api/goals/${annaGoal}/reminder`)).status, 200);

  // Deleting the goal deletes its reminder.
  const goal = (await anna.post('/api/goals', { name: 'Water' })).body.id;
  await anna.put(`/api/goals/${goal}/reminder`, { time: '10:00', channel: 'email' });
  await anna.delete(`/api/goals/${goal}`);
  assert.deepEqual((await anna.get('/api/reminders')).body, []);
});

test('the signed reminder-off link: GET shows one button and changes nothing, POST (form or one-click) turns it off; a tampered link gets a 404 page', async () => {
  await anna.put(`/api/goals/${annaGoal}/reminder`, { time: '19:30', channel: 'email' });
  const annaId = (await anna.get('/api/me')).body.id as number;
  const url = new URL(reminderOffUrl(steady.deps.config.baseUrl, steady.deps.secretKey, Number(annaGoal), annaId));
  const stranger = steady.client();

  const page = await stranger.get(url.pathname, { origin: undefined });
  assert.equal(page.status, 200, page.text);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(page.text, /Push-ups/);
  assert.match(page.text, new RegExp(`<form method="post" action="${url.pathname.replace(/[.]/g, '\\.')}">`));
  assert.equal((await anna.get('/api/reminders')).body.length, 1, 'opening the link changes nothing');

  for (const tampered of [
    url.pathname.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    url.pathname.replace(`/off/${annaGoal}.`, `/off/${benGoal}.`),
    url.pathname.replace(`.${annaId}.`, `.${annaId + 1}.`),
    '/api/reminders/off/garbage',
  ]) {
    for (const method of ['GET', 'POST']) {
      const refused = await stranger.request(
        method,
        tampered,
        method === 'POST' ? 'List-Unsubscribe=One-Click' : undefined,
        {
          origin: undefined,
          'content-type': method === 'POST' ? 'application/x-www-form-urlencoded' : undefined,
        },
      );
      assert.equal(refused.status, 404, `${method} ${tampered}: ${refused.text}`);
      assert.match(String(refused.headers['content-type']), /^text\/html/);
      assert.match(refused.text, /This link to turn a reminder off is not valid\./);
    }
  }
  assert.equal((await anna.get('/api/reminders')).body.length, 1);

  // RFC 8058: the mail provider POSTs "List-Unsubscribe=One-Click" as a form, without a cookie or Origin.
  const oneClick = await stranger.request('POST', url.pathname, 'List-Unsubscribe=One-Click', {
    origin: undefined,
    'content-type': 'application/x-www-form-urlencoded',
  });
  assert.equal(oneClick.status, 200, oneClick.text);
  assert.match(oneClick.text, /is off/);
  assert.deepEqual((await anna.get('/api/reminders')).body, []);
  // Again: still fine.
  assert.equal((await stranger.request('POST', url.pathname, undefined, { origin: undefined })).status, 200);
});

/** The visible text of a page: tags dropped, entities of quotes kept as they are. */
const pageText = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

// Decision 0178: a person who opened a damaged link from a mail got `{"error":"This reminder link is not valid",...}`.
test('a damaged or cut-off link answers a 404 page, not JSON, in the language the browser asks for', async () => {
  const annaId = (await anna.get('/api/me')).body.id as number;
  const url = new URL(reminderOffUrl(steady.deps.config.baseUrl, steady.deps.secretKey, Number(annaGoal), annaId));
  const stranger = steady.client();
  const cutOff = url.pathname.slice(0, -12);
  for (const [acceptLanguage, expected] of [
    [undefined, 'This link to turn a reminder off is not valid.'],
    ['pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7', 'Ten link do wyłączenia przypomnienia jest nieprawidłowy.'],
    ['fr-CH, fr;q=0.9, de;q=0.7, *;q=0.5', 'Dieser Link zum Abschalten einer Erinnerung ist ungültig.'],
    ['en;q=0.3, pl;q=0.8', 'Ten link do wyłączenia przypomnienia jest nieprawidłowy.'],
    ['de;q=0, fr', 'This link to turn a reminder off is not valid.'],
  ] as const) {
    for (const method of ['GET', 'POST']) {
      const answer = await stranger.request(method, cutOff, undefined, {
        origin: undefined,
        'accept-language': acceptLanguage,
      });
      assert.equal(answer.status, 404, `${method} ${acceptLanguage}: ${answer.text}`);
      assert.match(String(answer.headers['content-type']), /^text\/html; charset=utf-8/);
      assert.ok(pageText(answer.text).includes(expected), `${acceptLanguage}: ${answer.text}`);
      assert.match(answer.text, /<a href="http:\/\/steady\.test\/">/);
      assert.doesNotMatch(answer.text, /"error"/);
    }
  }
});

test('a link to a goal deleted since the mail says the reminder is off in the language of the user it names', async () => {
  const ewa = await steady.register('ewa@example.com');
  assert.equal((await ewa.patch('/api/me', { locale: 'pl' })).status, 200);
  const ewaId = (await ewa.get('/api/me')).body.id as number;
  const goal = (await ewa.post('/api/goals', { name: 'Pompki' })).body.id as string;
  await ewa.put(`/api/goals/${goal}/reminder`, { time: '07:30', channel: 'email' });
  const url = new URL(reminderOffUrl(steady.deps.config.baseUrl, steady.deps.secretKey, Number(goal), ewaId));
  assert.equal((await ewa.delete(`/api/goals/${goal}`)).status, 200);
  // An English browser (a mail program's own view, say): the page is still Ewa's Polish.
  for (const method of ['GET', 'POST']) {
    const answer = await steady.client().request(method, url.pathname, undefined, {
      origin: undefined,
      'accept-language': 'en-GB,en;q=0.9',
    });
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.text, /<html lang="pl">/);
    assert.ok(pageText(answer.text).includes('To przypomnienie jest wyłączone.'), answer.text);
  }
  // Account gone too: the browser's language.
  const deleted = await ewa.request('DELETE', '/api/me', { password: 'correct horse battery' });
  assert.equal(deleted.status, 200, deleted.text);
  const answer = await steady.client().get(url.pathname, { origin: undefined, 'accept-language': 'de-DE' });
  assert.equal(answer.status, 200, answer.text);
  assert.ok(pageText(answer.text).includes('Diese Erinnerung ist abgeschaltet.'), answer.text);
});

test('the link pages take their look from a stylesheet of our own origin, as the Content-Security-Policy allows', async () => {
  const annaId = (await anna.get('/api/me')).body.id as number;
  const url = new URL(reminderOffUrl(steady.deps.config.baseUrl, steady.deps.secretKey, Number(annaGoal), annaId));
  const stranger = steady.client();
  const pages = [
    await stranger.get(url.pathname, { origin: undefined }),
    await stranger.get(url.pathname.slice(0, -3), { origin: undefined }),
    await stranger.request('POST', url.pathname, undefined, { origin: undefined }),
  ];
  for (const page of pages) {
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /style-src 'self'(;|$)/, 'no inline style is allowed');
    assert.match(page.text, /<link rel="stylesheet" href="\/api\/reminders\/page\.css">/);
    assert.doesNotMatch(page.text, /<style|\sstyle=/i, 'nothing inline, which the policy would block');
  }
  const css = await stranger.get('/api/reminders/page.css', { origin: undefined });
  assert.equal(css.status, 200);
  assert.match(String(css.headers['content-type']), /^text\/css/);
  assert.match(css.text, /button \{[^}]*min-height: 44px;/);
});

test('POST/DELETE /api/push/subscriptions and GET /api/push/key; endpoints must be https on public addresses', async () => {
  const key = await anna.get('/api/push/key');
  assert.equal(key.status, 200, key.text);
  assert.match(key.body.public_key, /^[A-Za-z0-9_-]{87}$/);
  // One pair for everybody, kept in the database.
  assert.equal((await ben.get('/api/push/key')).body.public_key, key.body.public_key);

  const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
  for (const endpoint of [
    'http://push.example.com/x',
    'https://127.0.0.1/x',
    'https://10.1.2.3/x',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://192.168.1.1/x',
    'https://localhost/x',
    'https://localhost:8443/x',
    'not a url',
    'https://user:pw@fcm.googleapis.com/x',
  ]) {
    const refused = await anna.post('/api/push/subscriptions', { endpoint, keys });
    assert.equal(refused.status, 400, `${endpoint}: ${refused.text}`);
    assert.equal(refused.body.code, 'invalid_push_endpoint', endpoint);
    assert.equal(refused.body.field, 'endpoint');
  }
  const badKeys = await anna.post('/api/push/subscriptions', {
    endpoint: 'https://8.8.8.8/x',
    keys: { p256dh: 'short', auth: keys.auth },
  });
  assert.deepEqual(
    [badKeys.status, badKeys.body.code, badKeys.body.field],
    [400, 'invalid_push_subscription', 'keys.p256dh'],
  );

  // A public address literal passes the rule (no DNS needed in the test).
  const stored = await anna.post('/api/push/subscriptions', {
    endpoint: 'https://8.8.8.8/push/abc',
    keys,
    expirationTime: null,
  });
  assert.equal(stored.status, 200, stored.text);
  const rows = await steady.deps.db.selectFrom('push_subscriptions').selectAll().execute();
  assert.equal(rows.length, 1);
  // Ben cannot remove Anna's subscription; Anna can.
  await ben.request('DELETE', '/api/push/subscriptions', { endpoint: 'https://8.8.8.8/push/abc' });
  assert.equal((await steady.deps.db.selectFrom('push_subscriptions').selectAll().execute()).length, 1);
  const removed = await anna.request('DELETE', '/api/push/subscriptions', { endpoint: 'https://8.8.8.8/push/abc' });
  assert.deepEqual([removed.status, removed.body], [200, { ok: true }]);
  assert.equal((await steady.deps.db.selectFrom('push_subscriptions').selectAll().execute()).length, 0);
});
