import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, MINUTE } from '../../../src/server/clock.js';
import { createTestApp, PASSWORD } from '../../support/app.js';

const tokenOf = (url: string) => new URL(url).searchParams.get('invite')!;

test('POST /api/invites/check answers what registering with the link would meet, without a session, changing nothing', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const invite = async (): Promise<string> => (await anna.post('/api/invite', {})).body.url;
  const revokedUrl = await invite();
  const revoked = tokenOf(revokedUrl);
  const [pending, used, expired] = [tokenOf(await invite()), tokenOf(await invite()), tokenOf(await invite())];
  const visitor = steady.client();
  const check = async (token: string) => {
    const answer = await visitor.post('/api/invites/check', { token });
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };

  assert.equal(
    (await visitor.post('/api/register', { email: 'ben@example.com', password: PASSWORD, token: used })).status,
    200,
  );
  assert.equal((await anna.post('/api/invites/revoke', { url: revokedUrl })).status, 200);
  steady.clock.advance(5 * MINUTE);

  assert.deepEqual(await check(pending), { state: 'pending' });
  // As registration reads the link: surrounding whitespace from a pasted link is not part of the token.
  assert.deepEqual(await check(`  ${pending}\n`), { state: 'pending' });
  assert.deepEqual(await check(used), { state: 'used' });
  assert.deepEqual(await check(revoked), { state: 'expired' });
  assert.deepEqual(await check('0'.repeat(64)), { state: 'invalid' });
  steady.clock.advance(7 * DAY);
  assert.deepEqual(await check(expired), { state: 'expired' });
  assert.deepEqual(await check(pending), { state: 'expired' });
});

test('checking a link neither uses it nor keeps it from registering', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const anna = await steady.register('anna@example.com');
  const token = tokenOf((await anna.post('/api/invite', {})).body.url);
  const visitor = steady.client();
  for (let i = 0; i < 3; i++) assert.equal((await visitor.post('/api/invites/check', { token })).body.state, 'pending');
  const register = await visitor.post('/api/register', { email: 'ben@example.com', password: PASSWORD, token });
  assert.equal(register.status, 200, register.text);
  assert.equal((await visitor.post('/api/invites/check', { token })).body.state, 'used');
});

test('POST /api/invites/check refuses a body without a token', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const visitor = steady.client();
  for (const body of [{}, { token: 5 }]) {
    const answer = await visitor.post('/api/invites/check', body);
    assert.equal(answer.status, 400, JSON.stringify(body));
  }
});
