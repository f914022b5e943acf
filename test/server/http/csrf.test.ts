import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

const FOREIGN_ORIGIN = { error: 'Requests from another origin are not allowed', code: 'foreign_origin' };
const CROSS_SITE = { error: 'Cross-site requests are not allowed', code: 'cross_site_request' };
const NOT_JSON = { error: 'Request body must be application/json', code: 'unsupported_media_type' };

describe('CSRF guard', () => {
  let steady: TestApp;
  let anna: TestClient;
  before(async () => {
    steady = await createTestApp();
    anna = await steady.register('anna@example.com', { name: 'Anna' });
  });
  after(() => steady.close());

  const nameIs = async (expected: string) => assert.equal((await anna.get('/api/me')).body.name, expected);

  it('refuses a foreign Origin with 403 foreign_origin, also for a logged-in user, and changes nothing', async () => {
    for (const origin of ['http://evil.example', 'http://steady.test:8080', 'https://steady.test', 'null']) {
      const answer = await anna.patch('/api/me', { name: 'Hacked' }, { origin });
      assert.equal(answer.status, 403, origin);
      assert.deepEqual(answer.body, FOREIGN_ORIGIN);
    }
    const login = await steady
      .client()
      .post('/api/login', { email: 'anna@example.com', password: PASSWORD }, { origin: 'http://evil.example' });
    assert.equal(login.status, 403);
    await nameIs('Anna');
  });

  it('refuses Sec-Fetch-Site: cross-site with 403 cross_site_request', async () => {
    const answer = await anna.patch('/api/me', { name: 'Hacked' }, { 'sec-fetch-site': 'cross-site' });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.body, CROSS_SITE);
    const logout = await anna.post('/api/logout', undefined, { 'sec-fetch-site': 'cross-site' });
    assert.equal(logout.status, 403);
    await nameIs('Anna');
  });

  it('refuses text/plain and form bodies with 415, as an HTML form would send them', async () => {
    const bodies = [
      ['text/plain', '{"name":"Hacked"}'],
      ['application/x-www-form-urlencoded', 'name=Hacked'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nHacked\r\n--x--\r\n',
      ],
      ['application/jsonp', '{"name":"Hacked"}'],
    ] as const;
    for (const [contentType, payload] of bodies) {
      const answer = await anna.request('PATCH', '/api/me', payload, { 'content-type': contentType });
      assert.equal(answer.status, 415, contentType);
      assert.deepEqual(answer.body, NOT_JSON);
    }
    await nameIs('Anna');
  });

  it('lets same-origin JSON through, also with a charset and Sec-Fetch-Site: same-origin', async () => {
    const answer = await anna.patch(
      '/api/me',
      { name: 'Anna B.' },
      { 'content-type': 'application/json; charset=utf-8', 'sec-fetch-site': 'same-origin' },
    );
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { ok: true, name: 'Anna B.' });
  });

  it('lets a request without Origin through (curl, scripts)', async () => {
    const client = anna.clone();
    const answer = await client.request('PATCH', '/api/me', { name: 'Anna C.' }, { origin: undefined });
    assert.equal(answer.status, 200, answer.text);
  });

  it('lets a bodyless POST /api/logout through and ends the session', async () => {
    const bert = await steady.register('bert@example.com');
    const logout = await bert.post('/api/logout');
    assert.equal(logout.status, 200);
    assert.deepEqual(logout.body, { ok: true });
    assert.equal((await bert.get('/api/me')).status, 401);
  });
});
