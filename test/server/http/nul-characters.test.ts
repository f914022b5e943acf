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

/**
 * Sends every endpoint's body with `bad` in each text field in turn, in an unknown key, and for the goal routes in a
 * date key and an amount; each is refused with 400 invalid_input, `message` and the field, and nothing changes.
 */
async function refusedEverywhere(bad: string, message: string): Promise<void> {
  const steady = await createTestApp();
  try {
    const anna = await steady.register('anna@example.com');
    assert.equal((await anna.post('/api/goals', { name: 'Existing' })).status, 200);

    for (const endpoint of ENDPOINTS) {
      const client = endpoint.session ? anna : steady.client();
      // [body, the field the refusal names]: the text field itself; none for the text in a top-level key.
      const variants: [Record<string, unknown>, string | undefined][] = [
        ...Object.keys(endpoint.body).map((field): [Record<string, unknown>, string] => [
          { ...endpoint.body, [field]: bad },
          field,
        ]),
        [{ ...endpoint.body, [bad]: 'unknown field with such a name' }, undefined],
      ];
      if (endpoint.url.startsWith('/api/goals')) {
        variants.push([{ ...endpoint.body, sets: { [`2026-01-01${bad}`]: [1] } }, 'sets']);
        variants.push([{ ...endpoint.body, sets: { '2026-01-01': [1, bad] } }, 'sets.2026-01-01[1]']);
      }
      for (const [body, field] of variants) {
        const answer = await client.request(endpoint.method, endpoint.url, body);
        const label = `${endpoint.method} ${endpoint.url} ${JSON.stringify(body)}`;
        assert.equal(answer.status, 400, `${label}: ${answer.text}`);
        assert.deepEqual(
          answer.body,
          { error: message, code: 'invalid_input', ...(field !== undefined && { field }) },
          label,
        );
      }
    }
    // Nothing was changed by any of them.
    assert.equal((await anna.get('/api/me')).body.name, '');
    assert.deepEqual(
      (await anna.get('/api/goals')).body.map((goal: { name: string; unit: string }) => [goal.name, goal.unit]),
      [['Existing', 'Stück']],
    );
    assert.equal(
      (await steady.client().post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status,
      200,
    );
  } finally {
    await steady.close();
  }
}

describe('NUL characters (U+0000) in text fields (issue 13 point 4)', () => {
  it('are refused with 400 invalid_input on every endpoint and every text field, keys included', async () => {
    await refusedEverywhere(NUL, 'Text must not contain NUL characters (U+0000)');
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

describe('lone surrogates in text fields (decision 0213)', () => {
  it('are refused like NUL: UTF-8 cannot hold them, and SQLite and PostgreSQL each stored something else', async () => {
    await refusedEverywhere('a\ud800b', 'Text must not contain a lone surrogate (U+D800 to U+DFFF without its pair)');
    await refusedEverywhere('a\udfffb', 'Text must not contain a lone surrogate (U+D800 to U+DFFF without its pair)');
  });

  it('a whole pair (an emoji) and its escaped form are ordinary text, stored as sent', async (t) => {
    const steady = await createTestApp();
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    const created = await anna.request(
      'POST',
      '/api/goals',
      '{"name":"Run \\ud83c\\udfc3 \\ud83c\\udfc3","unit":"🏃"}',
    );
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(
      (await anna.get('/api/goals')).body.map((goal: { name: string; unit: string }) => [goal.name, goal.unit]),
      [['Run 🏃 🏃', '🏃']],
    );
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
