import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GOAL_BODY_LIMIT_BYTES as BODY_LIMIT_BYTES } from '../../../src/server/http/body-limits.js';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';
import type { TestClient, TestResponse } from '../../support/client.js';

/** `field` is compared too: left out, the answer must not name one. */
function assertClientError(
  answer: TestResponse,
  status: number,
  expected: { error?: string | RegExp; code: string; field?: string },
): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(typeof answer.body, 'object', answer.text);
  assert.deepEqual(
    Object.keys(answer.body).sort(),
    expected.field === undefined ? ['code', 'error'] : ['code', 'error', 'field'],
  );
  assert.equal(answer.body.code, expected.code);
  assert.equal(answer.body.field, expected.field);
  if (expected.error instanceof RegExp) assert.match(answer.body.error, expected.error);
  else if (expected.error !== undefined) assert.equal(answer.body.error, expected.error);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
}

describe('bad input never reaches a 500', () => {
  let steady: TestApp;
  let anna: TestClient;
  let guest: TestClient;
  before(async () => {
    steady = await createTestApp();
    anna = await steady.register('anna@example.com', { name: 'Anna' });
    guest = steady.client();
  });
  after(() => steady.close());

  it('malformed JSON: 400 invalid_json', async () => {
    for (const payload of ['{"email":', '{email: "a"}', "{'email':'a'}", '{"a":1}}', 'undefined']) {
      assertClientError(await guest.post('/api/login', payload), 400, {
        error: 'Request body is not valid JSON',
        code: 'invalid_json',
      });
    }
  });

  it('a body that is not UTF-8 (a file saved as Latin-1): 400 invalid_json, never stored with U+FFFD', async () => {
    // "Pompöki" as Latin-1 writes ö as the one byte 0xF6, which UTF-8 never has alone (decision 0188).
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const goal = { name: 'Pompöki', unit: 'x', daily: 1, days: 30, start: '2026-01-15 09:00:00', sets: {} };
    const document = { format: 'steady-export', version: 1, goals: [goal] };
    const refused = { error: 'Request body is not valid UTF-8', code: 'invalid_json' };
    const pia = await steady.register('pia@example.com');
    assertClientError(await pia.post('/api/goals', latin1(JSON.stringify({ name: 'Pompöki' }))), 400, refused);
    assertClientError(await pia.post('/api/import', latin1(JSON.stringify(document))), 400, refused);
    assert.deepEqual((await pia.get('/api/goals')).body, []);
    // The same text as UTF-8 is taken whole.
    assert.equal((await pia.post('/api/goals', Buffer.from(JSON.stringify({ name: 'Pompöki' })))).body.name, 'Pompöki');
  });

  it('an empty body labelled JSON counts as no body: refused where a body is needed, fine for logout', async () => {
    for (const payload of ['', '  \n']) {
      assertClientError(await guest.post('/api/login', payload), 400, {
        error: 'body must be object',
        code: 'invalid_input',
      });
    }
    const client = await steady.register('empty-body@example.com');
    const logout = await client.request('POST', '/api/logout', '', { 'content-type': 'application/json' });
    assert.equal(logout.status, 200);
    assert.deepEqual(logout.body, { ok: true });
    assert.equal((await client.get('/api/me')).status, 401);
  });

  it('a body shorter than its Content-Length: 400 invalid_body', async () => {
    assertClientError(
      await guest.post('/api/login', '{"email":"a@example.com","password":"x"}', { 'content-length': '5' }),
      400,
      {
        code: 'invalid_body',
      },
    );
  });

  it('a body that is not an object (array, string, number, null, boolean): 400 invalid_input', async () => {
    for (const payload of ['[]', '[{"email":"anna@example.com"}]', '"anna@example.com"', '42', 'null', 'true']) {
      assertClientError(await guest.post('/api/login', payload), 400, {
        error: 'body must be object',
        code: 'invalid_input',
      });
      assertClientError(await anna.patch('/api/me', payload), 400, {
        error: 'body must be object',
        code: 'invalid_input',
      });
    }
  });

  it('wrong field types are refused, never coerced: 400 invalid_input naming the field', async () => {
    assertClientError(await guest.post('/api/login', { email: 5, password: PASSWORD }), 400, {
      error: 'email must be string',
      code: 'invalid_input',
      field: 'email',
    });
    assertClientError(await guest.post('/api/login', { email: 'anna@example.com', password: 12345678 }), 400, {
      error: 'password must be string',
      code: 'invalid_input',
      field: 'password',
    });
    assertClientError(await guest.post('/api/login', { email: ['anna@example.com'], password: PASSWORD }), 400, {
      error: 'email must be string',
      code: 'invalid_input',
      field: 'email',
    });
    assertClientError(await anna.patch('/api/me', { name: null }), 400, {
      error: 'name must be string',
      code: 'invalid_input',
      field: 'name',
    });
    assertClientError(await anna.patch('/api/me', { locale: { de: true } }), 400, {
      error: 'locale must be string',
      code: 'invalid_input',
      field: 'locale',
    });
    assertClientError(await anna.post('/api/register', { email: 'x@example.com', password: PASSWORD, token: 7 }), 400, {
      error: 'token must be string',
      code: 'invalid_input',
      field: 'token',
    });
  });

  it('"5" where a number is expected is not coerced (seen through POST /api/goals, the only numeric input)', async () => {
    // `email: 5` above shows that Ajv does not coerce (it would turn 5 into "5"); here the other direction.
    const answer = await anna.post('/api/goals', { name: 'Push-ups', daily: '5' });
    assert.equal(answer.status, 400);
    assert.deepEqual(Object.keys(answer.body).sort(), ['code', 'error', 'field']);
    assert.equal(answer.body.field, 'daily');
    assert.deepEqual((await anna.get('/api/goals')).body, []);
  });

  it('__proto__ and constructor.prototype keys: 400, and nothing is polluted', async () => {
    const payloads = [
      '{"email":"anna@example.com","password":"x","__proto__":{"polluted":true}}',
      '{"name":"Eve","__proto__":{"polluted":true}}',
      '{"name":"Eve","constructor":{"prototype":{"polluted":true}}}',
      '{"email":"anna@example.com","password":"x","constructor":{"prototype":{"polluted":true}}}',
    ];
    for (const payload of payloads) {
      const answer = payload.includes('email')
        ? await guest.post('/api/login', payload)
        : await anna.patch('/api/me', payload);
      assertClientError(answer, 400, {
        error: 'Request body must not contain __proto__ or constructor.prototype keys',
        code: 'invalid_input',
      });
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal((await anna.get('/api/me')).body.name, 'Anna');
  });

  it('over-long text: each a clear 400 with its own code', async () => {
    assertClientError(await anna.patch('/api/me', { name: 'n'.repeat(101) }), 400, {
      error: 'name must have at most 100 characters',
      code: 'name_too_long',
      field: 'name',
    });
    const longEmail = `${'l'.repeat(250)}@example.com`;
    assertClientError(
      await guest.post('/api/register', { email: longEmail, password: PASSWORD, token: await steady.inviteToken() }),
      400,
      {
        error: 'email is not a valid e-mail address',
        code: 'invalid_email',
        field: 'email',
      },
    );
    // Beyond the hard cap of every text field the schema refuses it before any work is done.
    assertClientError(await guest.post('/api/login', { email: 'x'.repeat(4097), password: PASSWORD }), 400, {
      error: 'email must NOT have more than 4096 characters',
      code: 'invalid_input',
      field: 'email',
    });
    assertClientError(await anna.patch('/api/me', { name: 'n'.repeat(5000) }), 400, {
      error: 'name must NOT have more than 4096 characters',
      code: 'invalid_input',
      field: 'name',
    });
  });

  it('a goal body over 1 MiB: 413 body_too_large', async () => {
    const big = JSON.stringify({ name: 'x', padding: 'x'.repeat(BODY_LIMIT_BYTES) });
    // The answer names the route's limit (decision 0187).
    const tooLarge = {
      error: `Request body is larger than the ${BODY_LIMIT_BYTES} bytes this route takes`,
      code: 'body_too_large',
      max_bytes: BODY_LIMIT_BYTES,
    };
    for (const answer of [await anna.post('/api/goals', big), await anna.patch('/api/goals/1', big)]) {
      assert.equal(answer.status, 413);
      assert.deepEqual(answer.body, tooLarge);
    }
  });

  it('a malformed URL: 400 bad_request in the same shape', async () => {
    for (const url of ['/%E0%A4%A', '/api/%zz']) {
      assertClientError(await anna.get(url), 400, { error: 'The request URL is not valid', code: 'bad_request' });
    }
  });

  it('unknown routes and methods: 404 { error, code }', async () => {
    const cases: [string, string, unknown][] = [
      ['GET', '/api/nothing-here', undefined],
      ['POST', '/api/nothing-here', { a: 1 }],
      ['PUT', '/api/me', { name: 'X' }],
      ['DELETE', '/api/login', undefined],
      ['GET', '/api/login', undefined],
      ['GET', '/api', undefined],
      ['GET', '/no/such/page', undefined],
    ];
    for (const [method, url, body] of cases) {
      const answer = await anna.request(method, url, body);
      assertClientError(answer, 404, { error: `No route for ${method} ${url}`, code: 'not_found' });
    }
  });
});
