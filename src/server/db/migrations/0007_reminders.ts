import type { Kysely } from 'kysely';
import { addIdColumn, type DialectName, timestampType } from '../dialect.js';

/**
 * Reminders (issue 11): the user's time zone, one reminder per goal, the browsers' push subscriptions, and the
 * log of reminders sent, whose key (goal, local date) is the claim that makes a reminder go out once per day
 * across processes (docs/decisions/0101-reminders-exactly-once.md).
 */
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const ts = timestampType(dialect);
  await db.schema
    .createTable('preferences')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('timezone', 'text')
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('reminders')
    .addColumn('goal_id', 'integer', (c) => c.primaryKey().references('goals.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reminders_user_id').on('reminders').column('user_id').execute();
  await addIdColumn(db.schema.createTable('push_subscriptions'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user_id').on('push_subscriptions').column('user_id').execute();
  await db.schema
    .createTable('reminder_sends')
    .addColumn('goal_id', 'integer', (c) => c.notNull().references('goals.id').onDelete('cascade'))
    .addColumn('local_date', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    // sending (claimed, in flight), retry (tried again from next_try_at), sent, failed (gave up), skipped
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('claimed_at', ts, (c) => c.notNull())
    .addColumn('next_try_at', ts)
    .addColumn('finished_at', ts)
    .addPrimaryKeyConstraint('reminder_sends_pk', ['goal_id', 'local_date'])
    .execute();
  await db.schema.createIndex('reminder_sends_user_id').on('reminder_sends').column('user_id').execute();
}
