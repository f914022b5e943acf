import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../../support/app.js';
import { testDatabaseKind } from '../../support/database.js';

const TOKEN = 'metrics-token-0123456789';

test('/healthz and /readyz answer 200 { status: "ok" } without a session', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  for (const path of ['/healthz', '/readyz']) {
    const response = await steady.client().get(path);
    assert.equal(response.status, 200, path);
    assert.deepEqual(response.body, { status: 'ok' });
  }
});

test('without METRICS_TOKEN there is no /metrics (404)', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const response = await steady.client().get('/metrics', { authorization: `Bearer ${TOKEN}` });
  assert.equal(response.status, 404);
  assert.equal(response.body.code, 'not_found');
});

test('with METRICS_TOKEN: 401 without or with a wrong token; Prometheus text with requests, durations, event loop, mails', async (t) => {
  const steady = await createTestApp({ METRICS_TOKEN: TOKEN });
  t.after(() => steady.close());
  for (const authorization of [undefined, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`, `Bearer  ${TOKEN}`, `Bearer`]) {
    const refused = await steady.client().get('/metrics', { authorization });
    assert.equal(refused.status, 401, String(authorization));
    assert.equal(refused.body.code, 'unauthenticated');
  }

  const anna = await steady.register('anna@example.com');
  const goal = await anna.post('/api/goals', { name: 'Push-ups' });
  await anna.patch(`/api/goals/${goal.body.id}`, { unit: 'reps' });
  await anna.patch('/api/goals/999999', { unit: 'reps' });
  assert.equal((await steady.client().post('/api/reset-request', { email: 'anna@example.com' })).status, 200);
  await steady.smtp.nextMail();

  // The scheme's name in any case (RFC 9110).
  for (const scheme of ['bearer', 'BEARER']) {
    const lower = await steady.client().get('/metrics', { authorization: `${scheme} ${TOKEN}` });
    assert.equal(lower.status, 200, scheme);
  }
  const response = await steady.client().get('/metrics', { authorization: `Bearer ${TOKEN}` });
  assert.equal(response.status, 200);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const text = response.text;
  // By route pattern, never by raw URL (one series per goal id would grow without bound).
  assert.match(text, /^http_requests_total\{method="POST",route="\/api\/goals",status="200"\} 1$/m);
  assert.match(text, /^http_requests_total\{method="PATCH",route="\/api\/goals\/:id",status="200"\} 1$/m);
  assert.match(text, /^http_requests_total\{method="PATCH",route="\/api\/goals\/:id",status="404"\} 1$/m);
  assert.doesNotMatch(text, /goals\/999999/);
  assert.match(
    text,
    /^http_request_duration_seconds_bucket\{le="0\.5",method="POST",route="\/api\/goals",status="200"\} 1$/m,
  );
  assert.match(text, /^nodejs_eventloop_lag_p99_seconds \d/m);
  assert.match(text, /^steady_mails_total\{result="sent"\} 1$/m);
  assert.match(text, /^# TYPE steady_reminders_total counter$/m);
  if (testDatabaseKind() === 'postgres') assert.match(text, /^steady_db_pool_connections\{state="total"\} \d+$/m);
});

test('a failed mail is counted as failed', async (t) => {
  const steady = await createTestApp({ METRICS_TOKEN: TOKEN, SMTP_URL: 'smtp://127.0.0.1:1' });
  t.after(() => steady.close());
  await steady.register('anna@example.com');
  await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const text = (await steady.client().get('/metrics', { authorization: `Bearer ${TOKEN}` })).text;
  assert.match(text, /^steady_mails_total\{result="failed"\} 1$/m);
});
