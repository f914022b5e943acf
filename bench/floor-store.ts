// The bench's floor (docs/decisions/0118-bench-floor-and-precompiled-writes.md): the least any implementation of a
// logged amount or a cached goal list can cost on this machine with Fastify and the app's database driver. It runs the
// statements the app's log cannot do without (the session and its user, the goal row's lock and size, the date's
// amounts, the insert, the goal's size, the list version) in one transaction, prepared once, with no query builder, no
// hooks and no checks. It works on the bench's own database beside the app, through connections of its own; it is a
// yardstick, never a code path of Steady.
import { createHash } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../src/server/config.js';
import { amountChars } from '../src/server/goals/serialize.js';

export interface FloorUser {
  id: number;
}

export interface FloorStore {
  /** The user of a session token, as the app's session lookup finds it. */
  sessionUser(token: string): Promise<FloorUser | undefined>;
  /** Appends `amount` to the goal's date; the date's amounts after it, or undefined when the goal is not the user's. */
  logAmount(userId: number, goalId: number, date: string, amount: number): Promise<number[] | undefined>;
  close(): Promise<void>;
}

interface GoalSize {
  sets_dates: number;
  sets_amount_chars: number;
}

// Written with `?`; PostgreSQL gets them numbered.
const SESSION_USER = `select users.id from sessions join users on users.id = sessions.user_id
    and users.credential_version = sessions.credential_version
  where sessions.token_hash = ? and sessions.expires_at > ?`;
const LOCK_GOAL = `update goals set updated_at = updated_at where id = ? and user_id = ?
  returning sets_dates, sets_amount_chars`;
const DATE_AMOUNTS = `select amount from goal_entries where goal_id = ? and date = ? and removed_at is null order by id`;
const INSERT_AMOUNT = `insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at)
  values (?, ?, ?, ?, null, ?)`;
const GROW_GOAL = `update goals set sets_dates = ?, sets_amount_chars = ?, updated_at = ? where id = ?`;
const BUMP_VERSION = `update users set goals_version = goals_version + 1 where id = ?`;
/** PostgreSQL: the three writes in one round trip, as the app sends them (decision 0111). */
const APPEND_CHAINED = `with inserted as (
    insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at)
    values ($1, $2, $3, $4, null, $5) returning id),
  grown as (update goals set sets_dates = $6, sets_amount_chars = $7, updated_at = $5 where id = $2),
  version as (update users set goals_version = goals_version + 1 where id = $1)
  select id from inserted`;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const amountsOf = (rows: Array<{ amount: number | null }>) =>
  rows.flatMap((row) => (row.amount === null ? [] : [row.amount]));
/** The goal's size once `amount` is on the date that held `amountsBefore`. */
const grownSize = (size: GoalSize, amountsBefore: number[], amount: number) => ({
  dates: size.sets_dates + (amountsBefore.length === 0 ? 1 : 0),
  amountChars: size.sets_amount_chars + amountChars(amount),
});

export function openFloorStore(database: DatabaseConfig): FloorStore {
  return database.kind === 'sqlite' ? sqliteFloor(database.file) : postgresFloor(database.url, database.poolSize);
}

/** One synchronous better-sqlite3 transaction of prepared statements. */
function sqliteFloor(file: string): FloorStore {
  const db = new SqliteDatabase(file);
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 1500');
  const session = db.prepare<[string, number], FloorUser>(SESSION_USER);
  const lockGoal = db.prepare<[number, number], GoalSize>(LOCK_GOAL);
  const dateAmounts = db.prepare<[number, string], { amount: number | null }>(DATE_AMOUNTS);
  const insert = db.prepare(INSERT_AMOUNT);
  const grow = db.prepare(GROW_GOAL);
  const bumpVersion = db.prepare(BUMP_VERSION);
  const log = db.transaction((userId: number, goalId: number, date: string, amount: number) => {
    const size = lockGoal.get(goalId, userId);
    if (!size) return undefined;
    const amounts = amountsOf(dateAmounts.all(goalId, date));
    const now = Date.now();
    insert.run(userId, goalId, date, amount, now);
    const grown = grownSize(size, amounts, amount);
    grow.run(grown.dates, grown.amountChars, now, goalId);
    bumpVersion.run(userId);
    return [...amounts, amount];
  });
  return {
    sessionUser: async (token) => session.get(tokenHash(token), Date.now()),
    logAmount: async (userId, goalId, date, amount) => log.immediate(userId, goalId, date, amount),
    close: async () => void db.close(),
  };
}

/** A pool as large as the app's, named prepared statements, one round trip a statement. */
function postgresFloor(url: string, poolSize: number): FloorStore {
  pg.types.setTypeParser(pg.types.builtins.INT8, Number);
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const statement = (name: string, text: string, values: unknown[]) => ({ name: `floor_${name}`, text, values });
  return {
    async sessionUser(token) {
      const { rows } = await pool.query<FloorUser>(
        statement('session', numbered(SESSION_USER), [tokenHash(token), Date.now()]),
      );
      return rows[0];
    },
    async logAmount(userId, goalId, date, amount) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const [size] = (await client.query<GoalSize>(statement('lock', numbered(LOCK_GOAL), [goalId, userId]))).rows;
        if (!size) {
          await client.query('rollback');
          return undefined;
        }
        const dateRows = await client.query<{ amount: number | null }>(
          statement('amounts', numbered(DATE_AMOUNTS), [goalId, date]),
        );
        const amounts = amountsOf(dateRows.rows);
        const grown = grownSize(size, amounts, amount);
        await client.query(
          statement('append', APPEND_CHAINED, [
            userId,
            goalId,
            date,
            amount,
            Date.now(),
            grown.dates,
            grown.amountChars,
          ]),
        );
        await client.query('commit');
        return [...amounts, amount];
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** `?` placeholders as PostgreSQL's `$1`, `$2`, ... */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
