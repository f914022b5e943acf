import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestApp, PASSWORD } from '../../support/app.js';

const NUL = 'a\u0000b';

/** Every endpoint that takes text, with a valid body; each text field in turn gets a NUL character. */
const ENDPOINTS: { method: 'POST' | 'PATCH'; url: string; body: Record<string, unknown>; session: boolean }[] = [
  { method: 'POST', url: '/api/login', body: { email: 'anna@example.com', password: PASSWORD }, session: false },
  {
    method: 'POST',
    url: '/api/register',
    body: { email: 'new@example.com', password: PASSWORD, token: 'x', name: 'New' },
    session: false,
  },
  { method: 'POST', url: '/api/reset-request', body: { email: 'anna@example.com' }, session: false },
  {
    method: 'POST',
    url: '/api/reset-password',
    body: { selector: 'a', token: 'b', password: PASSWORD },
    session: false,
  },
  { method: 'PATCH', url: '/api/me', body: { name: 'Anna' }, session: true },
  { method: 'PATCH', url: '/api/me', body: { locale: 'de' }, session: true },
  {
    method: 'POST',
    url: '/api/change-password',
    body: { old_password: PASSWORD, new_password: 'brand new secret' },
    session: true,
  },
  { method: 'POST', url: '/api/invite', body: { note: 'for Bert' }, session: true },
  { method: 'POST', url: '/api/goals', body: { name: 'Push-ups', unit: 'reps', start: '2026-01-01' }, session: true },
  { method: 'PATCH', url: '/api/goals/1', body: { name: 'Push-ups', unit: 'reps' }, session: true },
];

describe('NUL characters (U+0000) in text fields (issue 13 point 4)', () => {
  it('are refused with 400 invalid_input on every endpoint and every text field, keys included', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    assert.equal((await anna.post('/api/goals', { name: 'Existing' })).status, 200);

    for (const endpoint of ENDPOINTS) {
      const client = endpoint.session ? anna : steady.client();
      // [body, the field the refusal names]: the text field itself; none for a NUL in a top-level key.
      const variants: [Record<string, unknown>, string | undefined][] = [
        ...Object.keys(endpoint.body).map((field): [Record<string, unknown>, string] => [
          { ...endpoint.body, [field]: NUL },
          field,
        ]),
        [{ ...endpoint.body, [NUL]: 'unknown field with a NUL in its name' }, undefined],
      ];
      if (endpoint.url.startsWith('/api/goals')) {
        variants.push([{ ...endpoint.body, sets: { '2026-01-01\u0000': [1] } }, 'sets']);
        variants.push([{ ...endpoint.body, sets: { '2026-01-01': [1, NUL] } }, 'sets.2026-01-01[1]']);
      }
      for (const [body, field] of variants) {
        const answer = await client.request(endpoint.method, endpoint.url, body);
        const label = `${endpoint.method} ${endpoint.url} ${JSON.stringify(body)}`;
        assert.equal(answer.status, 400, `${label}: ${answer.text}`);
        const expected = {
          error: 'Text must not contain NUL characters (U+0000)',
          code: 'invalid_input',
          ...(field !== undefined && { field }),
        };
        assert.deepEqual(answer.body, expected, label);
      }
    }
    // Nothing was changed by any of them.
    assert.equal((await anna.get('/api/me')).body.name, '');
    assert.equal(
      (await steady.client().post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status,
      200,
    );
  });

  it('an escaped backslash before "u0000" is ordinary text, not a NUL', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    const answer = await anna.request('PATCH', '/api/me', '{"name":"back\\\\u0000slash"}');
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.name, 'back\\u0000slash');
  });
});

describe('the NUL check on deeply nested bodies', () => {
  it('walks 400,000 levels of nested arrays without overflowing the stack', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    const depth = 400_000;
    const answer = await anna.request(
      'POST',
      '/api/goals',
      `{"name":"x","sets":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`,
    );
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.body.code, 'invalid_input');
    assert.equal(answer.body.field, 'sets[0][0][0][0][0][0][0]', 'a deep NUL names its ancestor eight keys down');
  });
});
