import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import * as m0001 from './0001_accounts.js';
import * as m0002 from './0002_goals.js';
import * as m0003 from './0003_credential_version.js';
import * as m0004 from './0004_server_state.js';
import * as m0005 from './0005_backup_runs.js';
import * as m0006 from './0006_goal_entries.js';
import * as m0007 from './0007_reminders.js';
import * as m0008 from './0008_goal_layout.js';
import * as m0009 from './0009_import_keys.js';
import * as m0010 from './0010_request_keys.js';
import * as m0011 from './0011_foreign_key_indexes.js';
import * as m0012 from './0012_reminder_time_set_at.js';
import * as m0013 from './0013_gone_logins.js';
import * as m0014 from './0014_throttle_keys_by_address.js';
import * as m0015 from './0015_sqlite_entries_read_through_goals.js';

/** A migration is frozen once released: it types the database as `any` and never imports store code. */
export interface SteadyMigration {
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
}

/** In order of application; names are never changed once released. */
export const migrations: Record<string, SteadyMigration> = {
  '0001_accounts': m0001,
  '0002_goals': m0002,
  '0003_credential_version': m0003,
  '0004_server_state': m0004,
  '0005_backup_runs': m0005,
  '0006_goal_entries': m0006,
  '0007_reminders': m0007,
  '0008_goal_layout': m0008,
  '0009_import_keys': m0009,
  '0010_request_keys': m0010,
  '0011_foreign_key_indexes': m0011,
  '0012_reminder_time_set_at': m0012,
  '0013_gone_logins': m0013,
  '0014_throttle_keys_by_address': m0014,
  '0015_sqlite_entries_read_through_goals': m0015,
};
