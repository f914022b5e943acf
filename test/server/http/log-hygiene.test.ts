import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { redactedUrl } from '../../../src/server/http/request-log.js';
import { reminderOffUrl } from '../../../src/server/reminders/unsubscribe-link.js';
import { createLogger } from '../../../src/server/log.js';
import { createTestApp } from '../../support/app.js';

describe('log hygiene (issue 13 point 7)', () => {
  it('opening invite and reset links logs no token; without SMTP the outbox file holds the link and the log names only the file', async (t) => {
    const logged: string[] = [];
    const log = createLogger({ level: 'info', readable: false, write: (text) => void logged.push(text) });
    const steady = await createTestApp({ SMTP_URL: '', LOG_LEVEL: 'info' }, { log });
    t.after(() => steady.close());
    await steady.register('anna@example.com');

    const invite = await steady.inviteToken();
    assert.equal((await steady.client().get(`/?invite=${invite}`)).status, 200);
    assert.equal((await steady.client().post('/api/reset-request', { email: 'anna@example.com' })).status, 200);
    const outbox = path.join(steady.deps.config.dataDir, 'outbox');
    const [file] = fs.readdirSync(outbox);
    const mail = fs.readFileSync(path.join(outbox, file!), 'utf8');
    const link = /http:\/\/steady\.test\/\?reset_selector=([0-9a-f]+)&reset_token=([0-9a-f]+)/.exec(mail);
    assert.ok(link, mail);
    const [, selector, token] = link;
    assert.equal((await steady.client().get(`/?reset_selector=${selector}&reset_token=${token}`)).status, 200);
    assert.equal((await steady.client().get(`/?lang=de&%69nvite=${invite}`)).status, 200);

    const lines = logged.join('');
    assert.match(lines, /"url":"\/\?invite=\[redacted\]"/, 'the request lines are there, redacted');
    assert.match(lines, /"url":"\/\?reset_selector=\[redacted\]&reset_token=\[redacted\]"/);
    assert.match(lines, /"url":"\/\?lang=de&%69nvite=\[redacted\]"/);
    for (const secret of [invite, selector!, token!]) assert.ok(!lines.includes(secret), `${secret} is not in the log`);
    const outboxLine = logged
      .map((line) => JSON.parse(line))
      .find((line) => line.msg?.startsWith('mail written to the outbox'));
    assert.equal(outboxLine.file, path.join(outbox, file!));
  });

  it("opening a reminder's turn-off link logs its path without the token", async (t) => {
    const logged: string[] = [];
    const log = createLogger({ level: 'info', readable: false, write: (text) => void logged.push(text) });
    const steady = await createTestApp({ LOG_LEVEL: 'info' }, { log });
    t.after(() => steady.close());
    const anna = await steady.register('anna@example.com');
    const goal = (await anna.post('/api/goals', { name: 'Water' })).body.id as string;
    assert.equal((await anna.put(`/api/goals/${goal}/reminder`, { time: '19:30', channel: 'email' })).status, 200);
    const annaId = (await anna.get('/api/me')).body.id as number;
    const link = new URL(reminderOffUrl(steady.deps.config.baseUrl, steady.deps.secretKey, Number(goal), annaId));
    const token = link.pathname.split('/').at(-1)!;
    assert.equal((await steady.client().get(link.pathname, { origin: undefined })).status, 200);

    const lines = logged.join('');
    assert.match(lines, /"url":"\/api\/reminders\/off\/\[redacted\]"/, 'the request line is there, redacted');
    assert.ok(!lines.includes(token), 'the token is not in the log');
  });

  it('redactedUrl keeps everything but the secret values', () => {
    assert.equal(redactedUrl('/api/goals'), '/api/goals');
    assert.equal(redactedUrl('/?invite=abc&x=1'), '/?invite=[redacted]&x=1');
    assert.equal(redactedUrl('/?INVITE=abc'), '/?INVITE=[redacted]');
    assert.equal(redactedUrl('/?reset_token'), '/?reset_token=[redacted]');
    assert.equal(redactedUrl('/?a=%zz&reset_selector=s'), '/?a=%zz&reset_selector=[redacted]');
    assert.equal(redactedUrl('/api/reminders/off/1.2.abc'), '/api/reminders/off/[redacted]');
    assert.equal(redactedUrl('/API/Reminders/Off/1.2.abc?x=1'), '/API/Reminders/Off/[redacted]?x=1');
    assert.equal(redactedUrl('/api/reminders/off/'), '/api/reminders/off/');
    assert.equal(redactedUrl('/api/reminders'), '/api/reminders');
  });
});
