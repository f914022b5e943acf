import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ROUTES } from '../../../src/common/contract/routes.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import { TestClient } from '../../support/client.js';

// The session check is attached to each route as it is registered (auth/plugin.ts): this holds every route of the
// contract that declares `auth: 'required'` to it, so a route registered where the check does not reach would fail
// here rather than answer without a session. Routes that take a body get a malformed one: the check runs before the
// body is parsed, so only the check can answer 401 (without it the parser answers 400; handlers that call
// currentUser() would hide a missing check on bodyless requests).
let steady: TestApp;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

const required = Object.entries(ROUTES).filter(([, route]) => route.auth === 'required');

test('the contract has routes that need a session', () => {
  assert.ok(required.length >= 20, `${required.length} routes`);
});

for (const [name, route] of required) {
  test(`${route.method} ${route.url} (${name}) answers 401 without a session, with or without a stale cookie`, async () => {
    const url = route.url.replace(/:[a-z]+/g, (param) => (param === ':date' ? '2026-01-15' : '1'));
    const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : '{"unfinished":';
    for (const cookie of [undefined, `steady_session=${'ab'.repeat(32)}`]) {
      const client = new TestClient(steady.app, steady.deps.config.baseUrl);
      const answer = await client.request(route.method, url, body, { cookie });
      assert.equal(answer.status, 401, `${cookie ?? 'no cookie'}: ${answer.text}`);
      assert.equal(answer.body.code, 'unauthenticated');
    }
  });
}
