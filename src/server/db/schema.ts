import type { Generated, Selectable } from 'kysely';

/**
 * The database as the stores see it. Timestamps are integers (Unix milliseconds) so SQLite and PostgreSQL
 * behave the same; formatting happens at the HTTP edge.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  remember_tokens: RememberTokensTable;
  invites: InvitesTable;
  password_resets: PasswordResetsTable;
  throttle_buckets: ThrottleBucketsTable;
  goals: GoalsTable;
  goal_entries: GoalEntriesTable;
  goal_layout: GoalLayoutTable;
  backup_runs: BackupRunsTable;
  server_state: ServerStateTable;
  preferences: PreferencesTable;
  reminders: RemindersTable;
  push_subscriptions: PushSubscriptionsTable;
  reminder_sends: ReminderSendsTable;
  request_keys: RequestKeysTable;
  gone_logins: GoneLoginsTable;
}

export interface UsersTable {
  id: Generated<number>;
  /** Trimmed and lower-cased (see docs/decisions/0004-email-normalization.md). */
  email: string;
  password_hash: string;
  name: string;
  locale: string;
  created_at: number;
  /** Counts changes to the user's goals; the goal list cache is valid while this is unchanged. */
  goals_version: Generated<number>;
  /** Increased by every credential change; sessions and remember-me tokens carry the value they were issued under. */
  credential_version: Generated<number>;
}

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the cookie's secret; the secret itself is never stored. */
  token_hash: string;
  user_id: number;
  /** The user's `credential_version` when the session was issued; the session is valid only while they match. */
  credential_version: number;
  created_at: number;
  expires_at: number;
}

export interface RememberTokensTable {
  id: Generated<number>;
  selector: string;
  /** SHA-256 (hex) of the validator half of the cookie. */
  validator_hash: string;
  user_id: number;
  /** As on sessions. */
  credential_version: number;
  created_at: number;
  expires_at: number;
}

/** A login of a deleted account, kept until it would have expired (decision 0198). */
export interface GoneLoginsTable {
  /** `sessions.token_hash` or `remember_tokens.validator_hash` of the deleted account. */
  token_hash: string;
  expires_at: number;
}

export interface InvitesTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the token: registration looks invites up by this. */
  token_hash: string;
  /** The token encrypted with the server's secret key, so the list can show a pending invite's link; null once used. */
  token_encrypted: string | null;
  note: string | null;
  /** null for invites made by the operator (CLI, first start). */
  created_by: number | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  used_by: number | null;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  selector: string;
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface ThrottleBucketsTable {
  key: string;
  tokens: number;
  updated_at: number;
}

export interface GoalsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  unit: string;
  daily: number;
  days: number;
  /** Wall-clock `YYYY-MM-DD HH:MM:SS`, as the user gave it. */
  start: string;
  /** Dates the goal's `sets` holds (with amounts, or `[]`): with the next, its size cap is checked without reading. */
  sets_dates: Generated<number>;
  /** Sum over the live amounts of (length of the amount as JSON + 1): see `setsJsonBytes` (goals/serialize.ts). */
  sets_amount_chars: Generated<number>;
  created_at: number;
  updated_at: number;
}

/**
 * One logged amount (migration 0006, docs/decisions/0090-goal-entries.md). Amounts of a date are in id order.
 * `amount` null marks a date kept with no amounts (`"2026-01-15": []`); such a row exists only while its date has
 * no amounts. `removed_at` set: a removed entry kept as a tombstone so its `entry_id` stays known (decision 0092).
 */
export interface GoalEntriesTable {
  id: Generated<number>;
  user_id: number;
  goal_id: number;
  /** `YYYY-MM-DD`, the user's local date as the client sent it. */
  date: string;
  amount: number | null;
  /** The client's id of this logging (1–64 of A-Z a-z 0-9 _ -), unique per user; null when none was given. */
  entry_id: string | null;
  removed_at: number | null;
  created_at: number;
}

/** A scheduled backup day claimed by one server process (migration 0005). */
export interface BackupRunsTable {
  /** Local date `YYYY-MM-DD` of the server the backup is for. */
  day: string;
  claimed_at: number;
  /** null while the backup is being written. */
  done_at: number | null;
}

export type UserRow = Selectable<UsersTable>;
export type GoalRow = Selectable<GoalsTable>;

/** One row per fact (`base_url`: the BASE_URL the server last started with, for the CLI's links). */
export interface ServerStateTable {
  key: string;
  value: string;
  updated_at: number;
}

/** The `Idempotency-Key` of a recent keyed request (decisions 0127, 0130); kept a day. */
export interface RequestKeysTable {
  user_id: number;
  /** The kind of request the key belongs to: `import` or `create_goal` (`KeyScope`). */
  scope: string;
  key: string;
  /** SHA-256 (hex) of the request body. */
  body_hash: string;
  /** What the first request did, the answer to a repeat: the goals an import added, or the created goal's id. */
  result: number;
  created_at: number;
}

/** A goal's place in its owner's order and its archive state (migration 0008, decision 0093). */
export interface GoalLayoutTable {
  goal_id: number;
  user_id: number;
  /** null: never placed; such goals come after the placed ones, in creation order. */
  position: number | null;
  /** null: not archived. */
  archived_at: number | null;
}

/** Per-user settings beyond the spec's /api/me (migration 0007). */
export interface PreferencesTable {
  user_id: number;
  /** IANA time zone name, e.g. `Europe/Berlin`; null until the user (or their browser) sets it. */
  timezone: string | null;
  updated_at: number;
}

/** At most one reminder per goal (migration 0007). */
export interface RemindersTable {
  goal_id: number;
  user_id: number;
  /** Local `HH:MM` in the user's time zone. */
  time: string;
  channel: 'push' | 'email';
  updated_at: number;
  /**
   * When `time` was last set: the reminder made (also by an import) or its time changed; a change of channel alone
   * keeps it. A reminder set after its time had passed that day rings first the next day (migration 0012,
   * decision 0177).
   */
  time_set_at: number;
}

/** A browser's Web Push subscription (migration 0007). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: number;
}

/** One row per goal and local date a reminder was claimed for: the claim and the sent-log in one (migration 0007). */
export interface ReminderSendsTable {
  goal_id: number;
  local_date: string;
  user_id: number;
  channel: string;
  /** sending, retry (from next_try_at), sent, failed (gave up), skipped (target met before a retry). */
  status: 'sending' | 'retry' | 'sent' | 'failed' | 'skipped';
  attempts: number;
  claimed_at: number;
  next_try_at: number | null;
  finished_at: number | null;
}
