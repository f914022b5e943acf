import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestApp, PASSWORD } from '../../support/app.js';
import type { TestResponse } from '../../support/client.js';

interface ParsedCookie {
  name: string;
  attributes: Map<string, string>;
}

function parseSetCookies(answer: TestResponse): ParsedCookie[] {
  return answer.setCookies.map((line) => {
    const [pair, ...rest] = line.split(';');
    const attributes = new Map(
      rest.map((part) => {
        const [key, ...value] = part.trim().split('=');
        return [key!.toLowerCase(), value.join('=')] as const;
      }),
    );
    return { name: pair!.slice(0, pair!.indexOf('=')), attributes };
  });
}

function assertCookieAttributes(cookie: ParsedCookie, secure: boolean, maxAgeSeconds: number): void {
  assert.equal(cookie.attributes.get('path'), '/', cookie.name);
  assert.equal(cookie.attributes.has('httponly'), true, cookie.name);
  assert.equal(cookie.attributes.get('samesite'), 'Lax', cookie.name);
  assert.equal(cookie.attributes.has('secure'), secure, cookie.name);
  assert.equal(cookie.attributes.has('domain'), false, cookie.name);
  assert.equal(cookie.attributes.get('max-age'), String(maxAgeSeconds), cookie.name);
}

const DAY_SECONDS = 86_400;

describe('session cookies', () => {
  it('on http: plain names, HttpOnly, SameSite=Lax, Path=/, not Secure', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    await steady.register('anna@example.com');
    const login = await steady.client().post('/api/login', { email: 'anna@example.com', password: PASSWORD });
    const cookies = parseSetCookies(login);
    assert.deepEqual(cookies.map((c) => c.name).sort(), ['steady_remember', 'steady_session']);
    assertCookieAttributes(
      cookies.find((c) => c.name === 'steady_session')!,
      false,
      DAY_SECONDS,
    );
    assertCookieAttributes(
      cookies.find((c) => c.name === 'steady_remember')!,
      false,
      30 * DAY_SECONDS,
    );
  });

  it('on https: __Host- names and Secure, and those cookies carry the session', async (t) => {
    const steady = await createTestApp({ BASE_URL: 'https://steady.example' });
    t.after(() => steady.close());
    const client = steady.client();
    const register = await client.post('/api/register', {
      email: 'anna@example.com',
      password: PASSWORD,
      token: await steady.inviteToken(),
    });
    assert.equal(register.status, 200);
    const cookies = parseSetCookies(register);
    assert.deepEqual(cookies.map((c) => c.name).sort(), ['__Host-steady_remember', '__Host-steady_session']);
    assertCookieAttributes(
      cookies.find((c) => c.name === '__Host-steady_session')!,
      true,
      DAY_SECONDS,
    );
    assertCookieAttributes(
      cookies.find((c) => c.name === '__Host-steady_remember')!,
      true,
      30 * DAY_SECONDS,
    );
    assert.equal((await client.get('/api/me')).status, 200);

    // The same values under the plain http names are not accepted by an https installation.
    const plain = steady.client();
    for (const [name, value] of client.cookies) plain.cookies.set(name.replace('__Host-', ''), value);
    assert.equal((await plain.get('/api/me')).status, 401);

    const logout = await client.post('/api/logout');
    for (const cookie of parseSetCookies(logout)) assertCookieAttributes(cookie, true, 0);
  });
});
