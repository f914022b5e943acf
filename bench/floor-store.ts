// The bench's floor (docs/decisions/0118-bench-floor.md): the least any implementation of a logged amount or a cached
// goal list can cost on this machine with Fastify and better-sqlite3. It runs the statements the app's log cannot do
// without (the session and its user, the goal row's lock and size, the date's amounts, the insert, the list version)
// as prepared statements in one synchronous transaction, with no query builder, no hooks and no checks. It works on the
// bench's own SQLite file beside the app, through a second connection; it is a yardstick, never a code path of Steady.
import { createHash } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { amountChars } from '../src/server/goals/serialize.js';

export interface FloorUser {
  id: number;
}

export interface FloorStore {
  /** The user of a session token, as the app's session lookup finds it. */
  sessionUser(token: string): FloorUser | undefined;
  /** Appends `amount` to the goal's date; the date's amounts after it, or undefined when the goal is not the user's. */
  logAmount(userId: number, goalId: number, date: string, amount: number): number[] | undefined;
  close(): void;
}

export function openFloorStore(file: string): FloorStore {
  const db = new SqliteDatabase(file);
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 1500');
  const session = db.prepare<[string, number], FloorUser>(
    `select users.id from sessions join users on users.id = sessions.user_id
       and users.credential_version = sessions.credential_version
     where sessions.token_hash = ? and sessions.expires_at > ?`,
  );
  const lockGoal = db.prepare<[number, number], { sets_dates: number; sets_amount_chars: number }>(
    `update goals set updated_at = updated_at where id = ? and user_id = ? returning sets_dates, sets_amount_chars`,
  );
  const dateAmounts = db.prepare<[number, string], { amount: number | null }>(
    `select amount from goal_entries where goal_id = ? and date = ? and removed_at is null order by id`,
  );
  const insert = db.prepare(
    `insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at) values (?, ?, ?, ?, null, ?)`,
  );
  const grow = db.prepare(`update goals set sets_dates = ?, sets_amount_chars = ?, updated_at = ? where id = ?`);
  const bumpVersion = db.prepare(`update users set goals_version = goals_version + 1 where id = ?`);
  const log = db.transaction((userId: number, goalId: number, date: string, amount: number) => {
    const size = lockGoal.get(goalId, userId);
    if (!size) return undefined;
    const amounts = dateAmounts.all(goalId, date).flatMap((row) => (row.amount === null ? [] : [row.amount]));
    const now = Date.now();
    insert.run(userId, goalId, date, amount, now);
    const newDate = amounts.length === 0 ? 1 : 0;
    grow.run(size.sets_dates + newDate, size.sets_amount_chars + amountChars(amount), now, goalId);
    bumpVersion.run(userId);
    return [...amounts, amount];
  });
  return {
    sessionUser: (token) => session.get(createHash('sha256').update(token).digest('hex'), Date.now()),
    logAmount: (userId, goalId, date, amount) => log.immediate(userId, goalId, date, amount),
    close: () => db.close(),
  };
}
