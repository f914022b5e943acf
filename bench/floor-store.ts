// The bench's floor (docs/decisions/0118-bench-floor-and-precompiled-writes.md, 0120 for PATCH): the least any
// implementation of a logged amount, a PATCH of a goal's sets or a cached goal list can cost on this machine with
// Fastify and the app's database driver, giving each request its own transaction. It runs only the statements these
// requests cannot do without (the session and its user; the goal row's lock and size, the date's amounts or the
// goal's rows, the writes, the list version) in one transaction, prepared once, with no query builder, no hooks and no
// checks. The session lookups of requests arriving together share one query on both engines, as the app's do on
// PostgreSQL (decision 0123: on SQLite the app keeps one query per request for its memory; the floor's memory is not
// measured). It works on the bench's own database beside the app, through connections of its own; it is a
// yardstick, never a code path of Steady.
import { createHash } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../src/server/config.js';
import { coalescedLookup } from '../src/server/db/coalesced-lookup.js';
import type { GoalSets } from '../src/common/goal.js';
import { changesInPlace, type LiveEntry, sameAmounts } from '../src/server/goals/entries-store.js';
import { amountChars, setsSize } from '../src/server/goals/serialize.js';

export interface FloorUser {
  id: number;
}

export interface FloorStore {
  /** The user of a session token, as the app's session lookup finds it. */
  sessionUser(token: string): Promise<FloorUser | undefined>;
  /** Appends `amount` to the goal's date; the date's amounts after it, or undefined when the goal is not the user's. */
  logAmount(userId: number, goalId: number, date: string, amount: number): Promise<number[] | undefined>;
  /** Replaces the goal's `sets` as PATCH does; false when the goal is not the user's. */
  replaceSets(userId: number, goalId: number, sets: GoalSets): Promise<boolean>;
  close(): Promise<void>;
}

interface SessionRow extends FloorUser {
  token_hash: string;
  expires_at: number;
}

/** The user of a token among the rows of a shared lookup, unless its session has expired. */
function sessionUserOf(lookup: (tokenHash: string) => Promise<SessionRow | undefined>) {
  return async (token: string): Promise<FloorUser | undefined> => {
    const row = await lookup(tokenHash(token));
    return row && row.expires_at > Date.now() ? { id: row.id } : undefined;
  };
}

const SESSION_LOOKUP_MAX_KEYS = 100;
const rowsByToken = (rows: SessionRow[]) => new Map(rows.map((row) => [row.token_hash, row]));

type LiveEntryRow = [id: number, date: string, amount: number | null, entry_id: string | null];

interface GoalSize {
  sets_dates: number;
  sets_amount_chars: number;
}

/** The users of many session tokens (decision 0123); each request checks its own expiry. */
const SESSION_USERS = `select users.id, sessions.token_hash, sessions.expires_at from sessions join users
    on users.id = sessions.user_id and users.credential_version = sessions.credential_version
  where sessions.token_hash`;
const SQLITE_SESSION_USERS = `${SESSION_USERS} in (select value from json_each(?))`;
const POSTGRES_SESSION_USERS = `${SESSION_USERS} = any($1)`;
// Written with `?`; PostgreSQL gets them numbered. bench/storage-experiment.ts runs them too.
export const LOCK_GOAL = `update goals set updated_at = updated_at where id = ? and user_id = ?
  returning sets_dates, sets_amount_chars`;
export const DATE_AMOUNTS = `select amount from goal_entries where goal_id = ? and date = ? and removed_at is null order by id`;
export const INSERT_AMOUNT = `insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at)
  values (?, ?, ?, ?, null, ?)`;
export const GROW_GOAL = `update goals set sets_dates = ?, sets_amount_chars = ?, updated_at = ? where id = ?`;
export const BUMP_VERSION = `update users set goals_version = goals_version + 1 where id = ?`;
const RESIZE_GOAL = `update goals set sets_dates = ?, sets_amount_chars = ?, updated_at = ? where id = ? and user_id = ?`;
const LIVE_ENTRIES = `select id, date, amount, entry_id from goal_entries where goal_id = ? and removed_at is null
  order by date, id`;
export const SET_AMOUNT = `update goal_entries set amount = ? where id = ?`;
export const DELETE_ENTRY = `delete from goal_entries where id = ?`;
/** PostgreSQL: the goal's size written and its live entries read in one round trip; no rows when it is not the user's. */
const RESIZE_AND_READ = `with goal as (
    update goals set sets_dates = $3, sets_amount_chars = $4, updated_at = $5 where id = $1 and user_id = $2 returning id)
  select true as found, e.id, e.date, e.amount, e.entry_id from goal
    left join goal_entries e on e.goal_id = goal.id and e.removed_at is null
  order by e.date, e.id`;
/** PostgreSQL: PATCH's writes in one round trip: amounts changed in place, rows deleted, rows added, the version. */
const REPLACE_CHAINED = `with changed as (
    update goal_entries set amount = v.amount from unnest($1::bigint[], $2::float8[]) as v(id, amount)
    where goal_entries.id = v.id),
  removed as (delete from goal_entries where id = any($3::bigint[])),
  added as (insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at)
    select $4, $5, t.date, t.amount, null, $6 from unnest($7::text[], $8::float8[]) with ordinality as t(date, amount, n)
    order by t.n),
  version as (update users set goals_version = goals_version + 1 where id = $4)
  select 1`;
/** PostgreSQL: the three writes in one round trip, as the app sends them (decision 0111). */
const APPEND_CHAINED = `with inserted as (
    insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at)
    values ($1, $2, $3, $4, null, $5) returning id),
  grown as (update goals set sets_dates = $6, sets_amount_chars = $7, updated_at = $5 where id = $2),
  version as (update users set goals_version = goals_version + 1 where id = $1)
  select id from inserted`;

/**
 * PostgreSQL: a logged amount in one statement, its own transaction, as the app logs one (decision 0134): the reads,
 * the goal row locked only while it is the version read, the writes only then. No caps (the floor checks none).
 */
const LOG_IN_ONE_STATEMENT = `with snap as (
    select xmin as seen, sets_dates, sets_amount_chars,
      array(select e.amount from goal_entries e
        where e.goal_id = goals.id and e.date = $3 and e.removed_at is null and e.amount is not null
        order by e.id) as amounts
    from goals where id = $2 and user_id = $1),
  locked as (select id from goals where id = $2 and xmin = (select seen from snap) for update),
  inserted as (insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at)
    select $1, id, $3, $4, null, $5 from locked returning id),
  grown as (update goals set
      sets_dates = snap.sets_dates + case when cardinality(snap.amounts) = 0 then 1 else 0 end,
      sets_amount_chars = snap.sets_amount_chars + $6, updated_at = $5
    from snap where goals.id = $2 and exists (select 1 from inserted)),
  version as (update users set goals_version = goals_version + 1 where id = $1 and exists (select 1 from inserted))
  select exists (select 1 from inserted) as inserted, snap.amounts from snap`;

/** What PATCH's `sets` change in the goal's rows. */
interface SetsChanges {
  /** Rows whose amount changes in place: a date keeping its number of amounts (decision 0117). */
  amounts: Array<{ id: number; amount: number }>;
  deleted: number[];
  /** Rows added in this order; a date kept with no amounts is one row with a null amount, as the app stores it. */
  added: Array<{ date: string; amount: number | null }>;
}

/**
 * The changes of PATCH's `sets` against the goal's live rows, by the app's rule (goals/entries-store.ts): an equal
 * date is left alone, a date keeping its number of amounts changes them in place, any other date is rewritten. The
 * bench logs no `entry_id`, which the app would carry or keep as a tombstone; the floor refuses one instead.
 */
function setsChanges(live: LiveEntry[], sets: GoalSets): SetsChanges {
  const oldByDate = new Map<string, LiveEntry[]>();
  for (const entry of live) {
    if (entry.entry_id !== null) throw new Error('the floor replaces no entry with an entry_id');
    const rows = oldByDate.get(entry.date);
    if (rows) rows.push(entry);
    else oldByDate.set(entry.date, [entry]);
  }
  const changes: SetsChanges = { amounts: [], deleted: [], added: [] };
  for (const date of [...new Set([...oldByDate.keys(), ...Object.keys(sets)])].sort()) {
    const old = oldByDate.get(date) ?? [];
    const amounts = sets[date];
    if (amounts && sameAmounts(old, amounts)) continue;
    if (amounts && changesInPlace(old, amounts)) {
      old.forEach(
        (entry, i) => entry.amount !== amounts[i] && changes.amounts.push({ id: entry.id, amount: amounts[i]! }),
      );
      continue;
    }
    changes.deleted.push(...old.map((entry) => entry.id));
    if (amounts) changes.added.push(...(amounts.length === 0 ? [null] : amounts).map((amount) => ({ date, amount })));
  }
  return changes;
}

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
  const sessions = db.prepare<[string], SessionRow>(SQLITE_SESSION_USERS);
  const lockGoal = db.prepare<[number, number], GoalSize>(LOCK_GOAL);
  const dateAmounts = db.prepare<[number, string], { amount: number | null }>(DATE_AMOUNTS);
  const insert = db.prepare(INSERT_AMOUNT);
  const grow = db.prepare(GROW_GOAL);
  const bumpVersion = db.prepare(BUMP_VERSION);
  const resizeGoal = db.prepare(RESIZE_GOAL);
  // Rows as arrays, as the app reads them (decision 0131).
  const liveEntryRows = db.prepare<[number], LiveEntryRow>(LIVE_ENTRIES).raw(true);
  const liveEntries = (goalId: number): LiveEntry[] =>
    liveEntryRows.all(goalId).map(([id, date, amount, entry_id]) => ({ id, date, amount, entry_id }));
  const setAmount = db.prepare(SET_AMOUNT);
  const deleteEntry = db.prepare(DELETE_ENTRY);
  const replace = db.transaction((userId: number, goalId: number, sets: GoalSets) => {
    const now = Date.now();
    const size = setsSize(sets);
    if (resizeGoal.run(size.dates, size.amountChars, now, goalId, userId).changes === 0) return false;
    const changes = setsChanges(liveEntries(goalId), sets);
    for (const { id, amount } of changes.amounts) setAmount.run(amount, id);
    for (const id of changes.deleted) deleteEntry.run(id);
    for (const { date, amount } of changes.added) insert.run(userId, goalId, date, amount, now);
    bumpVersion.run(userId);
    return true;
  });
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
    sessionUser: sessionUserOf(
      coalescedLookup(
        async (hashes: string[]) => rowsByToken(sessions.all(JSON.stringify(hashes))),
        SESSION_LOOKUP_MAX_KEYS,
      ),
    ),
    logAmount: async (userId, goalId, date, amount) => log.immediate(userId, goalId, date, amount),
    replaceSets: async (userId, goalId, sets) => replace.immediate(userId, goalId, sets),
    close: async () => void db.close(),
  };
}

/** A pool as large as the app's, named prepared statements, one round trip a statement. */
function postgresFloor(url: string, poolSize: number): FloorStore {
  pg.types.setTypeParser(pg.types.builtins.INT8, Number);
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const statement = (name: string, text: string, values: unknown[]) => ({ name: `floor_${name}`, text, values });
  return {
    sessionUser: sessionUserOf(
      coalescedLookup(
        async (hashes: string[]) =>
          rowsByToken((await pool.query<SessionRow>(statement('sessions', POSTGRES_SESSION_USERS, [hashes]))).rows),
        SESSION_LOOKUP_MAX_KEYS,
      ),
    ),
    async logAmount(userId, goalId, date, amount) {
      const { rows } = await pool.query<{ inserted: boolean; amounts: number[] }>(
        statement('log', LOG_IN_ONE_STATEMENT, [userId, goalId, date, amount, Date.now(), amountChars(amount)]),
      );
      if (rows.length === 0) return undefined;
      if (rows[0]!.inserted) return [...rows[0]!.amounts, amount];
      // The goal changed between the statement's read and its lock: as the app, a transaction decides.
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
    async replaceSets(userId, goalId, sets) {
      const size = setsSize(sets);
      const now = Date.now();
      const client = await pool.connect();
      try {
        await client.query('begin');
        const { rows } = await client.query<LiveEntry & { found: boolean; id: number | null }>(
          statement('resize', RESIZE_AND_READ, [goalId, userId, size.dates, size.amountChars, now]),
        );
        if (rows.length === 0) {
          await client.query('rollback');
          return false;
        }
        const changes = setsChanges(
          rows.filter((row): row is typeof row & { id: number } => row.id !== null),
          sets,
        );
        await client.query(
          statement('replace', REPLACE_CHAINED, [
            changes.amounts.map((change) => change.id),
            changes.amounts.map((change) => change.amount),
            changes.deleted,
            userId,
            goalId,
            now,
            changes.added.map((row) => row.date),
            changes.added.map((row) => row.amount),
          ]),
        );
        await client.query('commit');
        return true;
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
