import type { Kysely } from 'kysely';
import { addIdColumn, type DialectName, timestampType } from '../dialect.js';

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const ts = timestampType(dialect);

  await addIdColumn(db.schema.createTable('users'), dialect)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await addIdColumn(db.schema.createTable('sessions'), dialect)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await addIdColumn(db.schema.createTable('remember_tokens'), dialect)
    .addColumn('selector', 'text', (c) => c.notNull().unique())
    .addColumn('validator_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('remember_tokens_user_id').on('remember_tokens').column('user_id').execute();

  await addIdColumn(db.schema.createTable('invites'), dialect)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_encrypted', 'text')
    .addColumn('note', 'text')
    // null for invites made by the operator (`steady invite`, the first-start invite).
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .addColumn('used_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('invites_created_by').on('invites').columns(['created_by', 'created_at']).execute();

  await addIdColumn(db.schema.createTable('password_resets'), dialect)
    .addColumn('selector', 'text', (c) => c.notNull().unique())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_resets_user_id').on('password_resets').column('user_id').execute();

  await db.schema
    .createTable('throttle_buckets')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('tokens', 'real', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}
