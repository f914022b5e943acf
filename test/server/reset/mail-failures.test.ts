import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword } from '../../../src/server/auth/passwords.js';
import { insertUser } from '../../../src/server/accounts/store.js';
import { createTestApp, PASSWORD, type TestApp } from '../../support/app.js';
import { memoryLogger } from '../../support/memory-log.js';
import { startSmtpReceiver } from '../../support/smtp-receiver.js';
import { closedPort } from './support.js';

const MAIL_FAILED = { error: 'The mail could not be sent; try again later', code: 'mail_failed' };

async function pendingResets(steady: TestApp): Promise<number> {
  return (await steady.deps.db.selectFrom('password_resets').select('id').execute()).length;
}

/** The answers to a reset request for `known` and for an address nobody has, and the log lines of the refusal. */
async function knownAndUnknown(steady: TestApp, known: string, unknown: string) {
  const knownAnswer = await steady.client().post('/api/reset-request', { email: known });
  const unknownAnswer = await steady.client().post('/api/reset-request', { email: unknown });
  return { known: knownAnswer, unknown: unknownAnswer };
}

function refusalsLogged(memory: ReturnType<typeof memoryLogger>) {
  return memory.lines().filter((line) => line.msg === 'reset mail: the mail server refused it; answered {ok:true}');
}

const REFUSALS = [
  {
    title:
      'a mail server that refuses the message: the known address answers as an unknown one, no link is left, the log says why',
    receiver: { refuse: true },
    responseCode: 550,
  },
  {
    title: 'a recipient the mail server refuses (501) answers as an unknown address does (decision 0194)',
    receiver: { refuseRecipients: ['anna@example.com'] },
    responseCode: 501,
  },
];

for (const { title, receiver, responseCode } of REFUSALS) {
  test(title, async (t) => {
    const refusing = await startSmtpReceiver(receiver);
    const memory = memoryLogger();
    const steady = await createTestApp({ SMTP_URL: refusing.url }, { log: memory.log });
    t.after(async () => {
      await steady.close();
      await refusing.close();
    });
    await steady.register('anna@example.com');

    const answers = await knownAndUnknown(steady, 'anna@example.com', 'nobody@example.com');
    assert.equal(answers.known.status, 200);
    assert.equal(answers.known.text, answers.unknown.text);
    assert.equal(await pendingResets(steady), 0);
    assert.equal(refusing.mails.length, 0);
    const [logged] = refusalsLogged(memory);
    assert.equal(logged.level, 50);
    assert.equal(logged.err.responseCode, responseCode);
  });
}

test('an account registered before decision 0194 with a..b@ logs in, and its reset request gives nothing away', async (t) => {
  const memory = memoryLogger();
  const steady = await createTestApp({}, { log: memory.log });
  t.after(() => steady.close());
  // The registration rule refuses this address now, so the account is made as it was before, in the store.
  await insertUser(steady.deps.db, {
    email: 'a..b@example.org',
    passwordHash: await hashPassword(PASSWORD),
    name: '',
    locale: 'en',
    now: steady.clock.now(),
  });

  const login = await steady.client().post('/api/login', { email: 'a..b@example.org', password: PASSWORD });
  assert.equal(login.status, 200);

  // The test's SMTP receiver answers "501 Bad recipient address syntax" to this address by itself.
  const answers = await knownAndUnknown(steady, 'a..b@example.org', 'c..d@example.org');
  assert.equal(answers.known.status, 200);
  assert.equal(answers.known.text, answers.unknown.text);
  assert.equal(await pendingResets(steady), 0);
  assert.match(refusalsLogged(memory)[0].err.message, /501 Error: Bad recipient address syntax/);
});

test('an unreachable mail server: 500 mail_failed for known and unknown addresses alike', async (t) => {
  const port = await closedPort();
  const steady = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  t.after(() => steady.close());
  await steady.register('anna@example.com');

  const known = await steady.client().post('/api/reset-request', { email: 'anna@example.com' });
  const unknown = await steady.client().post('/api/reset-request', { email: 'nobody@example.com' });
  for (const answer of [known, unknown]) {
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.body, MAIL_FAILED);
  }
  assert.equal(known.text, unknown.text);
  assert.equal(await pendingResets(steady), 0);
});
