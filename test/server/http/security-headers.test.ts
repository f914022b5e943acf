import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../support/app.js';
import type { TestResponse } from '../../support/client.js';

function assertSecurityHeaders(answer: TestResponse, label: string): void {
  const csp = String(answer.headers['content-security-policy']);
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values.join(' ')]),
  );
  assert.equal(directives.get('frame-ancestors'), "'none'", `${label}: ${csp}`);
  assert.equal(directives.get('script-src'), "'self'", `${label}: ${csp}`);
  assert.equal(directives.get('default-src'), "'self'", `${label}: ${csp}`);
  assert.equal(directives.get('object-src'), "'none'", `${label}: ${csp}`);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', label);
  assert.equal(answer.headers['referrer-policy'], 'no-referrer', label);
}

describe('security headers', () => {
  let steady: TestApp;
  before(async () => {
    steady = await createTestApp();
  });
  after(() => steady.close());

  it('on API answers, successful or not, with Cache-Control: no-store', async () => {
    const anna = await steady.register('anna@example.com');
    const answers: [string, TestResponse][] = [
      ['GET /api/me 200', await anna.get('/api/me')],
      ['GET /api/me 401', await steady.client().get('/api/me')],
      ['PATCH /api/me 400', await anna.patch('/api/me', { name: '' })],
      ['PATCH /api/me 403', await anna.patch('/api/me', { name: 'X' }, { origin: 'http://evil.example' })],
      ['GET /api/unknown 404', await anna.get('/api/unknown?x=1')],
      ['POST /api/login invalid JSON', await anna.post('/api/login', '{')],
      ['GET /api/%zz malformed URL', await anna.get('/api/%zz')],
      ['GET /%E0%A4%A malformed URL', await anna.get('/%E0%A4%A')],
    ];
    for (const [label, answer] of answers) {
      assertSecurityHeaders(answer, label);
      assert.equal(answer.headers['cache-control'], 'no-store', label);
    }
    assert.deepEqual(
      answers.map(([, a]) => a.status),
      [200, 401, 400, 403, 404, 400, 400, 400],
    );
  });

  it('GET / and GET /?invite=abc serve the HTML page (placeholder without a build) with the same headers', async () => {
    for (const url of ['/', '/?invite=abc', '/?reset_selector=a&reset_token=b']) {
      const page = await steady.client().get(url);
      assert.equal(page.status, 200, url);
      assert.match(String(page.headers['content-type']), /^text\/html; charset=utf-8/, url);
      assert.match(page.text, /^<!doctype html>/, url);
      assert.match(page.text, /<title>Steady<\/title>/, url);
      assertSecurityHeaders(page, url);
      assert.equal(page.headers['cache-control'], 'no-cache', url);
      assert.equal(page.headers['strict-transport-security'], undefined, url);
    }
  });

  it('on https: HSTS and upgrade-insecure-requests as well', async (t) => {
    const secure = await createTestApp({ BASE_URL: 'https://steady.example' });
    t.after(() => secure.close());
    for (const url of ['/', '/api/me']) {
      const answer = await secure.client().get(url);
      assertSecurityHeaders(answer, url);
      assert.equal(answer.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains', url);
      assert.match(String(answer.headers['content-security-policy']), /upgrade-insecure-requests/, url);
    }
  });
});
