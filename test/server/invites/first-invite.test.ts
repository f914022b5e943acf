import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY } from '../../../src/server/clock.js';
import { announceFirstInvite, type AnnounceLog } from '../../../src/server/invites/first-invite.js';
import { BASE_URL, createTestApp, PASSWORD } from '../../support/app.js';

/** Collects what would go to the server log. */
function logSink() {
  const lines: { details: Record<string, unknown>; message: string }[] = [];
  const log: AnnounceLog = {
    warn: (details, message) => lines.push({ details: details as Record<string, unknown>, message }),
  };
  return { log, lines };
}

async function operatorInviteCount(steady: Awaited<ReturnType<typeof createTestApp>>): Promise<number> {
  const rows = await steady.deps.db.selectFrom('invites').select('id').where('created_by', 'is', null).execute();
  return rows.length;
}

test('with no users, the log shows an invite URL that registers the first account', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const { log, lines } = logSink();

  const url = await announceFirstInvite(steady.deps, log);
  assert.ok(url);
  const token = new RegExp(`^${BASE_URL.replace(/\./g, '\\.')}/\\?invite=([0-9a-f]{64})$`).exec(url)?.[1];
  assert.ok(token, url);
  assert.equal(lines.length, 1);
  assert.ok(lines[0]!.message.endsWith(url), lines[0]!.message);
  assert.match(lines[0]!.message, /valid until 2026-01-22T09:00:00\.000Z/);
  assert.equal(lines[0]!.details.inviteUrl, url);

  const first = await steady.client().post('/api/register', { email: 'first@example.com', password: PASSWORD, token });
  assert.equal(first.status, 200);

  // Once somebody is registered, nothing is announced and no invite is made.
  const after = logSink();
  assert.equal(await announceFirstInvite(steady.deps, after.log), null);
  assert.equal(after.lines.length, 0);
  assert.equal(await operatorInviteCount(steady), 1);
});

test('restarts reuse the newest pending operator invite; a new one is made once it expired', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());

  const first = await announceFirstInvite(steady.deps, logSink().log);
  steady.clock.advance(DAY);
  const second = await announceFirstInvite(steady.deps, logSink().log);
  assert.equal(second, first);
  assert.equal(await operatorInviteCount(steady), 1);

  // The newest pending one is preferred (e.g. one the operator made with `steady invite`).
  const newer = await steady.inviteToken();
  const third = await announceFirstInvite(steady.deps, logSink().log);
  assert.equal(third, `${BASE_URL}/?invite=${newer}`);
  assert.equal(await operatorInviteCount(steady), 2);

  steady.clock.advance(7 * DAY);
  const fresh = await announceFirstInvite(steady.deps, logSink().log);
  assert.ok(fresh && fresh !== first && fresh !== third);
  assert.equal(await operatorInviteCount(steady), 3);
});

test('a pending invite sealed with another key is not reused (its link cannot be shown); a new one is made', async (t) => {
  const steady = await createTestApp();
  t.after(() => steady.close());
  const before = await announceFirstInvite(steady.deps, logSink().log);

  const { lines, log } = logSink();
  const after = await announceFirstInvite({ ...steady.deps, secretKey: Buffer.alloc(32, 1) }, log);
  assert.ok(after && after !== before);
  assert.equal(lines[0]!.details.reused, false);
  assert.equal(await operatorInviteCount(steady), 2);
});
