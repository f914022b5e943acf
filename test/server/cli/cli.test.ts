import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { migrations } from '../../../src/server/db/migrations/index.js';
import { ADMIN_EMAIL, createTestApp, PASSWORD, TEST_SECRET_KEY } from '../../support/app.js';
import { steady } from '../../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

const BASE_URL = 'http://steady.test';

let database: TestDatabase;
let env: Record<string, string>;

before(async () => {
  database = await createTestDatabase();
  env = {
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    BASE_URL,
    // The test app's key, so invites made by the CLI open in the test app too.
    SECRET_KEY: TEST_SECRET_KEY,
    LOG_LEVEL: 'silent',
  };
});
after(() => database.drop());

test('migrate applies the migrations once; users on an empty database says so', async () => {
  const first = await steady(['migrate'], env);
  assert.equal(first.stderr, '');
  assert.equal(first.code, 0);
  assert.equal(first.stdout, `Applied migrations: ${Object.keys(migrations).join(', ')}\n`);
  assert.match(first.stdout, /^Applied migrations: 0001_accounts, 0002_goals, /);

  const second = await steady(['migrate'], env);
  assert.equal(second.code, 0);
  assert.equal(second.stdout, 'The database is up to date.\n');

  const users = await steady(['users'], env);
  assert.equal(users.code, 0);
  assert.equal(users.stdout, 'No users yet. Create an invite with: steady invite\n');
});

test('invite --note prints a URL as the last line, and registering with it works; users lists the user', async (t) => {
  const made = await steady(['invite', '--note', '  for Anna '], env);
  assert.equal(made.stderr, '');
  assert.equal(made.code, 0);
  const lines = made.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^Invite created: single use, valid until \d{4}-\d\d-\d\dT[\d:.]+Z, note: for Anna$/);
  const token = /^http:\/\/steady\.test\/\?invite=([0-9a-f]{64})$/.exec(lines.at(-1)!)?.[1];
  assert.ok(token, `last line is not an invite URL: ${made.stdout}`);

  // A server on the same database and secret key accepts the invite.
  const app = await createTestApp({ DATABASE_URL: database.url, DATA_DIR: database.dataDir });
  t.after(() => app.close());
  const stored = await app.deps.db.selectFrom('invites').select(['note', 'created_by']).execute();
  assert.deepEqual(stored, [{ note: 'for Anna', created_by: null }]);
  const registered = await app.client().post('/api/register', {
    email: 'anna@example.com',
    password: PASSWORD,
    token,
    name: 'Anna',
  });
  assert.equal(registered.status, 200, registered.text);
  // A name as it could be stored before control characters became spaces (decision 0205).
  await app.deps.db.updateTable('users').set({ name: 'Anna \u001b[31mRed\u202Eevil\u2066' }).execute();
  const again = await app.client().post('/api/register', { email: 'ben@example.com', password: PASSWORD, token });
  assert.equal(again.body.code, 'invite_used');

  const users = await steady(['users'], env);
  assert.equal(users.code, 0);
  const [header, row, ...rest] = users.stdout.trimEnd().split('\n');
  assert.match(header!, /^ID\s+E-MAIL\s+NAME\s+REGISTERED \(UTC\)$/);
  // Control and bidi characters of the display name are not passed to the operator's terminal, but escaped.
  assert.match(row!, /^\d+\s+anna@example\.com\s+Anna \\u001b\[31mRed\\u202eevil\\u2066\s+\d{4}-\d\d-\d\d \d\d:\d\d$/);
  assert.deepEqual(rest, []);
});

test("an operator's invite from the CLI registers the ADMIN_EMAIL address (issue 13 point 9)", async (t) => {
  const made = await steady(['invite'], env);
  assert.equal(made.code, 0, made.stderr);
  const token = new URL(made.stdout.trimEnd().split('\n').at(-1)!).searchParams.get('invite');
  const app = await createTestApp({ DATABASE_URL: database.url, DATA_DIR: database.dataDir });
  t.after(() => app.close());
  const registered = await app
    .client()
    .post('/api/register', { email: ` ${ADMIN_EMAIL.toUpperCase()}`, password: PASSWORD, token });
  assert.equal(registered.status, 200, registered.text);
  assert.equal(registered.body.email, ADMIN_EMAIL);
});

test('--help prints the usage; an unknown command or option prints it to stderr with exit 2', async () => {
  const help = await steady(['--help'], env);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: steady <command> \[options\]/);
  assert.match(help.stdout, /invite \[--note TEXT\]/);

  const unknown = await steady(['frobnicate'], env);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stdout, '');
  assert.match(unknown.stderr, /^steady: unknown command "frobnicate"\nUsage: steady <command>/);

  const none = await steady([], env);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /Usage: steady <command>/);

  const badOption = await steady(['invite', '--bogus'], env);
  assert.equal(badOption.code, 2);
  assert.equal(badOption.stdout, '');
  assert.match(badOption.stderr, /^steady invite: Unknown option '--bogus'/);

  const longNote = await steady(['invite', '--note', 'x'.repeat(501)], env);
  assert.equal(longNote.code, 2);
  assert.equal(longNote.stderr, 'steady invite: note must have at most 500 characters (see steady --help)\n');
});

test('a bad environment stops with one line naming the variable and exit 2', async () => {
  const run = await steady(['invite'], { ...env, BASE_URL: 'ftp://example.org' });
  assert.equal(run.code, 2);
  assert.equal(run.stdout, '');
  assert.equal(
    run.stderr,
    'steady: invalid configuration: BASE_URL: must start with http:// or https://, got "ftp://example.org"\n',
  );
});
