import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createReminderScheduler } from '../../../src/server/reminders/start.js';
import { createTestApp } from '../../support/app.js';
import { olderDatabase } from '../../support/migrations.js';

const warsawWinter = (date: string, time: string) => Date.parse(`${date}T${time}:00+01:00`);

// Decision 0177: migration 0012 gives each reminder the moment its time was set, taken from when it was last saved.
test('migration 0012: reminders kept from before take their last save as the moment their time was set', async () => {
  const { database, db, userId, close } = await olderDatabase('0012');
  await db.insertInto('preferences').values({ user_id: userId, timezone: 'Europe/Warsaw', updated_at: 1 }).execute();
  const goal = { user_id: userId, unit: 'reps', daily: 22, days: 30, start: '2026-01-10 00:00:00' };
  const saved = { yesterday: warsawWinter('2026-01-14', '12:00'), today: warsawWinter('2026-01-15', '16:00') };
  const ids: Record<string, number> = {};
  for (const [name, updatedAt] of Object.entries(saved)) {
    const { id } = await db
      .insertInto('goals')
      .values({ ...goal, name, created_at: 1, updated_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[name] = id as number;
    await db
      .insertInto('reminders')
      .values({ goal_id: id, user_id: userId, time: '07:30', channel: 'email', updated_at: updatedAt })
      .execute();
  }
  await close();

  const steady = await createTestApp({}, { database });
  try {
    const rows = await steady.deps.db
      .selectFrom('reminders')
      .select(['goal_id', 'time_set_at'])
      .orderBy('goal_id')
      .execute();
    assert.deepEqual(rows, [
      { goal_id: ids.yesterday, time_set_at: saved.yesterday },
      { goal_id: ids.today, time_set_at: saved.today },
    ]);
    // At 16:09 after a server that was down over 07:30: the one saved yesterday rings late, as before; the one
    // saved at 16:00 today was set after its time and waits for tomorrow.
    const scheduler = createReminderScheduler(steady.deps, { info() {}, warn() {}, error() {} });
    steady.clock.advance(warsawWinter('2026-01-15', '16:09') - steady.clock.now());
    assert.equal(await scheduler.check(), 1);
    assert.equal(steady.smtp.mails.length, 1);
    assert.match(steady.smtp.mails[0]!.decoded, new RegExp(`/#/goal/${ids.yesterday}(?!\\d)`));
    steady.clock.advance(warsawWinter('2026-01-16', '07:30') - steady.clock.now());
    assert.equal(await scheduler.check(), 2);
  } finally {
    await steady.close();
  }
});
