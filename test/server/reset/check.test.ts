import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOUR } from '../../../src/server/clock.js';
import { createTestApp } from '../../support/app.js';
import { resetPairFrom } from './support.js';

test('POST /api/reset-check answers what the mailed link can do now, without a session, changing nothing', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  await steady.register('anna@example.com');
  const visitor = steady.client();
  const check = async (body: Record<string, unknown>) => {
    const answer = await visitor.post('/api/reset-check', body);
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };
  await visitor.post('/api/reset-request', { email: 'anna@example.com' });
  const { selector, token } = resetPairFrom(await steady.smtp.nextMail());

  assert.deepEqual(await check({ selector, token }), { state: 'valid' });
  // As the reset reads the link: surrounding whitespace from a pasted link is not part of it.
  assert.deepEqual(await check({ selector: ` ${selector}`, token: `${token}\n` }), { state: 'valid' });
  assert.deepEqual(await check({ selector, token: token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) }), {
    state: 'invalid',
  });
  assert.deepEqual(await check({ selector: 'nope', token }), { state: 'invalid' });

  // Checking left the link usable; once used, it is gone.
  const reset = await visitor.post('/api/reset-password', { selector, token, password: 'a brand new secret' });
  assert.equal(reset.status, 200, reset.text);
  assert.deepEqual(await check({ selector, token }), { state: 'invalid' });

  await visitor.post('/api/reset-request', { email: 'anna@example.com' });
  const second = resetPairFrom(await steady.smtp.nextMail(1));
  steady.clock.advance(24 * HOUR);
  assert.deepEqual(await check({ selector: second.selector, token: second.token }), { state: 'expired' });
});

test('POST /api/reset-check refuses a body without selector and token', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  for (const body of [{}, { selector: 'a' }, { token: 'b' }, { selector: 1, token: 'b' }]) {
    const answer = await steady.client().post('/api/reset-check', body);
    assert.equal(answer.status, 400, JSON.stringify(body));
  }
});
