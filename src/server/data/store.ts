import type { Kysely } from 'kysely';
import { bumpCredentialVersion } from '../accounts/store.js';
import { keepGoneLogins } from '../auth/sessions-store.js';
import { isUserClientBucket, userClientBucketRange, userThrottleKeys } from '../auth/throttle.js';
import type { GoalSets } from '../../common/goal.js';
import type { ReminderChannel } from '../../common/reminders.js';
import type { Database, GoalRow } from '../db/schema.js';
import { type EntryRow, entriesSets, goalsWithEntries } from '../goals/serialize.js';
import { addImportedLayout } from '../goals/layout-store.js';
import { entryParts, insertGoals } from '../goals/store.js';
import { saveReminder } from '../reminders/store.js';
import type { ImportedGoal } from './import-check.js';
import { claimRequestKey, deleteRequestKeys, type RequestKey } from '../http/request-keys-store.js';

/** One goal of an export: its row as stored, its layout and reminder (null when none), and its `sets`. */
export type StoredGoal = Pick<
  GoalRow,
  'id' | 'name' | 'unit' | 'daily' | 'days' | 'start' | 'created_at' | 'updated_at'
> & {
  position: number | null;
  archived_at: number | null;
  reminder: { time: string; channel: ReminderChannel } | null;
  sets: GoalSets;
};

/**
 * The caller's goals with everything stored about them, oldest first, each with its `sets`. The goal rows are read
 * now; their entries as the goals are taken, so an export of millions of amounts holds one goal's entries at a time
 * (decision 0116).
 */
export async function goalsForExport(db: Kysely<Database>, userId: number): Promise<AsyncIterable<StoredGoal>> {
  const rows = await db
    .selectFrom('goals')
    .leftJoin('goal_layout', 'goal_layout.goal_id', 'goals.id')
    .leftJoin('reminders', 'reminders.goal_id', 'goals.id')
    .select([
      'goals.id as id',
      'goals.name as name',
      'goals.unit as unit',
      'goals.daily as daily',
      'goals.days as days',
      'goals.start as start',
      'goals.created_at as created_at',
      'goals.updated_at as updated_at',
      'goal_layout.position as position',
      'goal_layout.archived_at as archived_at',
      'reminders.time as reminder_time',
      'reminders.channel as reminder_channel',
    ])
    .where('goals.user_id', '=', userId)
    .orderBy('goals.id')
    .execute();
  const goals = rows.map(({ reminder_time: time, reminder_channel: channel, ...goal }) => ({
    ...goal,
    reminder: time !== null && channel !== null ? { time, channel } : null,
  }));
  return withSets(goals, entryParts(db, userId));
}

async function* withSets(goals: Omit<StoredGoal, 'sets'>[], parts: AsyncIterable<EntryRow[]>) {
  for await (const [goal, entries] of goalsWithEntries(goals, parts)) yield { ...goal, sets: entriesSets(entries) };
}

/**
 * Adds an import's goals after the caller's own, with their place in the order, archive and reminder, in one
 * transaction: all of it is stored or none (decision 0125). With a key (decision 0127), a repeat of an earlier import
 * answers that import's number of goals and adds nothing; `reused` when the key came with another body.
 */
export async function importGoals(
  db: Kysely<Database>,
  userId: number,
  goals: ImportedGoal[],
  now: number,
  key?: RequestKey,
): Promise<ImportOutcome> {
  return db.transaction().execute(async (trx) => {
    if (key) {
      const claim = await claimRequestKey(trx, userId, 'import', key, now, goals.length);
      if (claim === 'reused') return claim;
      if (!claim.new) return { goals: claim.repeatOf };
    }
    const ids = await insertGoals(trx, userId, goals, now);
    const imported = goals.map((goal, index) => ({ ...goal, goalId: ids[index]! }));
    await addImportedLayout(trx, userId, imported);
    for (const { goalId, reminder } of imported) {
      if (reminder) await saveReminder(trx, userId, goalId, reminder, now);
    }
    return { goals: goals.length };
  });
}

/**
 * The goals an import added (or, repeated, the first time added), or `reused` when its key came earlier with
 * another document and nothing was added.
 */
export type ImportOutcome = { goals: number } | 'reused';

/**
 * Removes every row that belongs to the user, in one transaction: goals and their entries (tombstones too), logins (keeping only their token hashes for a while, decision 0198), reset links, the invites they
 * made (pending or not), the throttle buckets named after them and the user row. Invites they registered with stay
 * in their creators' lists as used, with `used_by` emptied (decision 0072). The deletes are spelled out rather than
 * left to ON DELETE CASCADE, so the result does not depend on SQLite's foreign_keys pragma.
 */
export async function deleteUserEverywhere(
  db: Kysely<Database>,
  user: { id: number; email: string },
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // The first write takes SQLite's write lock / the row lock on PostgreSQL, and the new credential version ends
    // a login that read the password before this transaction (decision 0061).
    await bumpCredentialVersion(trx, user.id);
    const sessionIds = (await trx.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).map(
      (row) => row.id,
    );
    // A range of the primary key: only this address's buckets are read, not every client's (decision 0207).
    const { from, to } = userClientBucketRange(user.email);
    const clientBuckets = await trx
      .selectFrom('throttle_buckets')
      .select('key')
      .where('key', '>=', from)
      .where('key', '<', to)
      .execute();
    const throttleKeys = [
      ...userThrottleKeys(user, sessionIds),
      ...clientBuckets.map((row) => row.key).filter((key) => isUserClientBucket(key, user.email)),
    ];
    await trx.deleteFrom('goal_entries').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('goal_layout').where('user_id', '=', user.id).execute();
    await deleteRequestKeys(trx, user.id);
    // Reminder tables first: they refer to the goals.
    await trx.deleteFrom('reminder_sends').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('reminders').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('push_subscriptions').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('preferences').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('goals').where('user_id', '=', user.id).execute();
    // Their other devices learn why they were logged out (decision 0198).
    await keepGoneLogins(trx, user.id, now);
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('remember_tokens').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('invites').where('created_by', '=', user.id).execute();
    await trx.updateTable('invites').set({ used_by: null }).where('used_by', '=', user.id).execute();
    await trx.deleteFrom('throttle_buckets').where('key', 'in', throttleKeys).execute();
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
  });
}
