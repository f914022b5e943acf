import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE_URL, createTestApp, PASSWORD, TEST_SECRET_KEY } from '../../support/app.js';
import { steady } from '../../support/cli.js';

test('steady reset-link EMAIL prints a working reset link as its last line; an unknown address exits 1', async (t) => {
  const app = await createTestApp();
  t.after(() => app.close());
  await app.register('anna@example.com');
  const env = {
    DATABASE_URL:
      app.deps.config.database.kind === 'sqlite'
        ? `sqlite:${app.deps.config.database.file}`
        : app.deps.config.database.url,
    BASE_URL,
    SECRET_KEY: TEST_SECRET_KEY,
    LOG_LEVEL: 'silent',
    DATA_DIR: app.deps.config.dataDir,
  };

  const made = await steady(['reset-link', '  Anna@Example.com '], env);
  assert.equal(made.stderr, '');
  assert.equal(made.code, 0);
  const link = new URL(made.stdout.trimEnd().split('\n').at(-1)!);
  assert.equal(link.origin, BASE_URL);
  const selector = link.searchParams.get('reset_selector')!;
  const token = link.searchParams.get('reset_token')!;
  // No mail was sent; the link works once.
  assert.equal(app.smtp.mails.length, 0);
  const reset = await app.client().post('/api/reset-password', { selector, token, password: 'a new password' });
  assert.equal(reset.status, 200, reset.text);
  assert.equal(
    (await app.client().post('/api/login', { email: 'anna@example.com', password: 'a new password' })).status,
    200,
  );
  assert.equal((await app.client().post('/api/login', { email: 'anna@example.com', password: PASSWORD })).status, 401);

  const unknown = await steady(['reset-link', 'nobody@example.com'], env);
  assert.equal(unknown.code, 1);
  assert.equal(unknown.stdout, '');
  assert.match(unknown.stderr, /no user has the e-mail address "nobody@example.com"/);
  assert.equal((await steady(['reset-link'], env)).code, 2);
});
