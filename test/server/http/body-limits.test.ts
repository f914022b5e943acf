import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SMALL_BODY_LIMIT_BYTES } from '../../../src/server/http/body-limits.js';
import { createTestApp, PASSWORD } from '../../support/app.js';

/** A JSON body of exactly `bytes` bytes: the given fields plus padding. */
function bodyOfSize(fields: Record<string, unknown>, bytes: number): string {
  const base = JSON.stringify({ ...fields, padding: '' });
  return JSON.stringify({ ...fields, padding: 'x'.repeat(bytes - Buffer.byteLength(base)) });
}

describe('per-route body limits (issue 13 point 5)', () => {
  it('the small-body routes take at most 16 KiB and answer 413 body_too_large above', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    const guest = steady.client();
    assert.equal(SMALL_BODY_LIMIT_BYTES, 16 * 1024);
    const routes: [typeof anna, 'POST' | 'PATCH', string, Record<string, unknown>][] = [
      [guest, 'POST', '/api/login', { email: 'anna@example.com', password: 'wrong password' }],
      [guest, 'POST', '/api/logout', {}],
      [guest, 'POST', '/api/register', { email: 'x@example.com', password: PASSWORD, token: 'nope' }],
      [guest, 'POST', '/api/reset-request', { email: 'nobody@example.com' }],
      [guest, 'POST', '/api/reset-password', { selector: 'a', token: 'b', password: PASSWORD }],
      [anna, 'POST', '/api/change-password', { old_password: 'wrong password', new_password: 'brand new secret' }],
      [anna, 'POST', '/api/invite', { note: 'n' }],
      [anna, 'PATCH', '/api/me', { name: 'Anna' }],
      [anna, 'POST', '/api/sessions/logout-others', {}],
      [anna, 'POST', '/api/goals/1/sets/2026-01-01', { amount: 1 }],
    ];
    for (const [client, method, url, fields] of routes) {
      const over = await client.request(method, url, bodyOfSize(fields, SMALL_BODY_LIMIT_BYTES + 1));
      assert.equal(over.status, 413, `${method} ${url}: ${over.text}`);
      assert.equal(over.body.code, 'body_too_large');
      assert.equal(over.body.max_bytes, SMALL_BODY_LIMIT_BYTES, `${method} ${url} names its limit`);
      const at = await client.request(method, url, bodyOfSize(fields, SMALL_BODY_LIMIT_BYTES));
      assert.notEqual(at.status, 413, `${method} ${url} at the limit`);
    }
    // Nested arrays, the costly shape to parse, are cut off as early.
    const nested = await guest.request('POST', '/api/logout', `${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    assert.equal(nested.status, 413);
    assert.equal(nested.body.max_bytes, SMALL_BODY_LIMIT_BYTES);
  });

  it('the goal routes that carry whole `sets` objects still take bodies above 16 KiB', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    const sets: Record<string, number[]> = {};
    for (let day = 0; day < 1000; day++) sets[new Date(Date.UTC(2024, 0, 1 + day)).toISOString().slice(0, 10)] = [1, 2];
    const body = JSON.stringify({ name: 'Big', sets });
    assert.ok(Buffer.byteLength(body) > SMALL_BODY_LIMIT_BYTES);
    const created = await anna.request('POST', '/api/goals', body);
    assert.equal(created.status, 200, created.text);
    assert.equal((await anna.request('PATCH', `/api/goals/${created.body.id}`, body)).status, 200);
  });
});
