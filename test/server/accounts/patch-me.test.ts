import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../support/app.js';
import type { TestClient } from '../../support/client.js';

describe('PATCH /api/me', () => {
  let steady: TestApp;
  let anna: TestClient;

  before(async () => {
    steady = await createTestApp();
    anna = await steady.register('anna@example.com', { name: 'Anna' });
  });
  after(() => steady.close());

  const me = async () => (await anna.get('/api/me')).body;

  it('stores the name trimmed and answers { ok, name }', async () => {
    const answer = await anna.patch('/api/me', { name: '  Anna Maria \t' });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { ok: true, name: 'Anna Maria' });
    assert.equal((await me()).name, 'Anna Maria');
  });

  it('keeps a name of exactly 100 characters and refuses 101 with 400 name_too_long', async () => {
    const hundred = 'ä'.repeat(100);
    assert.deepEqual((await anna.patch('/api/me', { name: ` ${hundred} ` })).body, { ok: true, name: hundred });
    const tooLong = await anna.patch('/api/me', { name: 'x'.repeat(101) });
    assert.equal(tooLong.status, 400);
    assert.deepEqual(tooLong.body, {
      error: 'name must have at most 100 characters',
      code: 'name_too_long',
      field: 'name',
    });
    assert.equal((await me()).name, hundred);
  });

  it('refuses an empty, blank or missing name with 400 and keeps the old one', async () => {
    await anna.patch('/api/me', { name: 'Anna' });
    for (const body of [{ name: '' }, { name: '   ' }, {}]) {
      const answer = await anna.patch('/api/me', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.deepEqual(answer.body, { error: 'name must not be empty', code: 'missing_field', field: 'name' });
    }
    assert.equal((await me()).name, 'Anna');
  });

  it('refuses a name that is not a string with 400 invalid_input', async () => {
    const answer = await anna.patch('/api/me', { name: 42 });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { error: 'name must be string', code: 'invalid_input', field: 'name' });
  });

  it('accepts the locales de, en and pl and answers { ok, locale }', async () => {
    for (const locale of ['de', 'pl', 'en']) {
      const answer = await anna.patch('/api/me', { locale });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { ok: true, locale });
      assert.equal((await me()).locale, locale);
    }
  });

  it('changes name and locale together: answers { ok, name, locale } and stores both (decision 0009)', async () => {
    const answer = await anna.patch('/api/me', { name: ' Anna Both ', locale: 'de' });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { ok: true, name: 'Anna Both', locale: 'de' });
    const stored = await me();
    assert.deepEqual([stored.name, stored.locale], ['Anna Both', 'de']);
  });

  it('refuses any other locale with 400 invalid_locale and keeps the old one', async () => {
    await anna.patch('/api/me', { locale: 'pl' });
    for (const locale of ['fr', 'EN', 'de-DE', '', ' de']) {
      const answer = await anna.patch('/api/me', { locale });
      assert.equal(answer.status, 400, locale);
      assert.deepEqual(answer.body, {
        error: 'locale must be one of de, en, pl',
        code: 'invalid_locale',
        field: 'locale',
      });
    }
    assert.equal((await me()).locale, 'pl');
  });

  it('answers 401 without a session', async () => {
    for (const body of [{ name: 'Eve' }, { locale: 'de' }]) {
      const answer = await steady.client().patch('/api/me', body);
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, { error: 'Not logged in', code: 'unauthenticated' });
    }
  });
});
