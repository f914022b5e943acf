import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { BackupScheduler } from '../../../src/server/backup/scheduler.js';
import { createTestApp } from '../../support/app.js';
import { testDatabaseKind } from '../../support/database.js';
import { writeWebBuild } from '../../support/web-build.js';

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
  assert.doesNotMatch(text, /steady_backup/, 'no backup gauge without BACKUP_DIR');
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

test('web app files and unknown paths are labelled by a fixed route, never by their URL', async (t) => {
  const webRoot = await fsp.mkdtemp(path.join(os.tmpdir(), 'steady-web-'));
  t.after(() => fsp.rm(webRoot, { recursive: true, force: true }));
  await writeWebBuild(webRoot);
  const steady = await createTestApp({ METRICS_TOKEN: TOKEN }, { webRoot });
  t.after(() => steady.close());
  const client = steady.client();
  for (const url of ['/assets/index-AbC123.js', '/assets/app-Large1.js', '/sw.js', '/']) {
    assert.equal((await client.get(url)).status, 200, url);
  }
  for (const url of ['/assets/index-Old999.js', '/no-such-page-1', '/no-such-page-2', '/api/nothing/3']) {
    assert.equal((await client.get(url)).status, 404, url);
  }

  const text = (await client.get('/metrics', { authorization: `Bearer ${TOKEN}` })).text;
  // Each deploy brings new hashed names: one series per file would grow until the process restarts.
  assert.match(text, /^http_requests_total\{method="GET",route="\/assets\/\*",status="200"\} 2$/m);
  assert.match(text, /^http_requests_total\{method="GET",route="\/sw\.js",status="200"\} 1$/m);
  assert.match(text, /^http_requests_total\{method="GET",route="\/",status="200"\} 1$/m);
  assert.match(text, /^http_requests_total\{method="GET",route="unmatched",status="404"\} 4$/m);
  assert.doesNotMatch(text, /AbC123|Large1|Old999|no-such-page|nothing/);
});

test('with BACKUP_DIR: the time of the newest finished backup, 0 before the first', { timeout: 60_000 }, async (t) => {
  const backupDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'steady-backups-'));
  t.after(() => fsp.rm(backupDir, { recursive: true, force: true }));
  const steady = await createTestApp({ METRICS_TOKEN: TOKEN, BACKUP_DIR: backupDir });
  t.after(() => steady.close());
  const scrape = async () => (await steady.client().get('/metrics', { authorization: `Bearer ${TOKEN}` })).text;
  assert.match(await scrape(), /^steady_backup_last_success_timestamp_seconds 0$/m);

  const scheduler = new BackupScheduler({
    db: steady.deps.db,
    clock: steady.clock,
    database: steady.deps.config.database,
    backupDir,
    timeZone: 'UTC',
    log: { info: () => undefined, error: (details) => assert.fail(JSON.stringify(details)) },
  });
  assert.notEqual(await scheduler.check(), null);
  const written = Math.floor(steady.clock.now() / 1000);
  assert.match(await scrape(), new RegExp(`^steady_backup_last_success_timestamp_seconds ${written}$`, 'm'));
});
