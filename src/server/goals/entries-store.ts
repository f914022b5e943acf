import { type Kysely, type QueryCreator, sql } from 'kysely';
import { GOAL_LIMITS, type GoalSets } from '../../common/goal.js';
import type { Database } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { amountChars, EMPTY_DATE_CHARS, type SetsSize, setsJsonBytes, setsSizeRefusal } from './serialize.js';
import { chainsWritesInOneStatement } from '../db/dialect.js';
import { precompiled } from '../db/precompiled.js';
import { inParts } from '../db/parts.js';
import { arrayRowsQuery } from '../db/array-rows.js';
import { bumpGoalsVersion, goalsVersionBump } from './version-store.js';
import { claimRequestKey, type RequestKey } from '../http/request-keys-store.js';
import { inWriteTransaction } from '../db/shared-commits-store.js';

/*
 * The amounts of goals, one row each in `goal_entries` (docs/decisions/0090-goal-entries.md). Logging and undo
 * touch one date of one goal: their cost depends on that date, never on how many dates the goal has. Every edit
 * writes the goal row first, which locks it (SQLite's write lock, PostgreSQL's row lock), so edits of one goal
 * run one after the other and the caps hold under races (decision 0034).
 *
 * The statements of logging, undo and PATCH are compiled once (db/precompiled.ts), their values bound by name:
 * building them with Kysely on every call cost about 40 % of a log's CPU time under load (decision 0118).
 */

type Db = Kysely<Database>;

/** Both engines bound a statement's parameters; 400 rows of 6 values stay far below either bound. */
const ROWS_PER_STATEMENT = 400;

interface NewEntry {
  date: string;
  amount: number | null;
  entry_id: string | null;
}

async function insertRows(trx: Db, userId: number, goalId: number, entries: NewEntry[], now: number): Promise<void> {
  for (const part of inParts(entries, ROWS_PER_STATEMENT)) {
    await trx
      .insertInto('goal_entries')
      .values(part.map((entry) => ({ user_id: userId, goal_id: goalId, ...entry, created_at: now })))
      .execute();
  }
}

/** The rows of one date's amounts in logging order; a date kept as `[]` is one row with a null amount. */
function rowsOf(date: string, amounts: readonly number[], entryIds: ReadonlyArray<string | null> = []): NewEntry[] {
  if (amounts.length === 0) return [{ date, amount: null, entry_id: null }];
  return amounts.map((amount, i) => ({ date, amount, entry_id: entryIds[i] ?? null }));
}

/** Stores the amounts of a new goal (create, import), dates ascending, each date's amounts in their order. */
export async function insertEntries(trx: Db, userId: number, goalId: number, sets: GoalSets, now: number) {
  const rows = Object.keys(sets)
    .sort()
    .flatMap((date) => rowsOf(date, sets[date]!));
  await insertRows(trx, userId, goalId, rows, now);
}

/** One live row of a goal as PATCH compares it (exported for the bench's floor, which follows the same rule). */
export interface LiveEntry {
  id: number;
  date: string;
  amount: number | null;
  entry_id: string | null;
}

/**
 * A goal's live entries, dates ascending, each date's in logging order, as arrays (decision 0120): better-sqlite3
 * read 270 rows as objects in 197 µs and as arrays in 117 µs (decision 0131).
 */
const liveEntriesQuery = precompiled((trx: Db, p: { goalId: number }) =>
  arrayRowsQuery<[id: number, date: string, amount: number | null, entry_id: string | null]>(
    trx
      .selectFrom('goal_entries')
      .select(['id', 'date', 'amount', 'entry_id'])
      .where('goal_id', '=', p.goalId)
      .where('removed_at', 'is', null)
      .orderBy('date')
      .orderBy('id'),
  ),
);

/** A goal's live entries (PATCH; a repeated creation's answer), on `db` or inside a transaction. */
export async function liveEntries(trx: Db, goalId: number): Promise<LiveEntry[]> {
  const rows = await liveEntriesQuery(trx, { goalId });
  return rows.map(([id, date, amount, entry_id]) => ({ id, date, amount, entry_id }));
}

/**
 * PATCH's `sets` replacing the goal's amounts whole, inside the caller's transaction that has locked the goal row.
 * A date whose amounts are unchanged keeps its rows; one that keeps its number of amounts and has no `entry_id`
 * changes them in place (`changesInPlace`). Another changed date is rewritten; an old entry matched in order by
 * an equal amount (the first 5 by the first 5, ...) passes its `entry_id` to the new row, so an offline client's
 * later replay is still recognised; an old entry with an `entry_id` that is not matched stays as a tombstone
 * (decisions 0091, 0092). Then bumps the user's goal list version.
 */
export async function replaceEntries(trx: Db, userId: number, goalId: number, sets: GoalSets, now: number) {
  const live = await liveEntries(trx, goalId);
  const oldByDate = new Map<string, LiveEntry[]>();
  for (const entry of live) {
    const rows = oldByDate.get(entry.date);
    if (rows) rows.push(entry);
    else oldByDate.set(entry.date, [entry]);
  }

  const tombstones: number[] = [];
  const deleted: number[] = [];
  const inserted: NewEntry[] = [];
  const changed: ChangedAmount[] = [];
  const dates = new Set([...oldByDate.keys(), ...Object.keys(sets)]);
  for (const date of [...dates].sort()) {
    const old = oldByDate.get(date) ?? [];
    const amounts = sets[date];
    if (amounts !== undefined && sameAmounts(old, amounts)) continue;
    if (amounts !== undefined && changesInPlace(old, amounts)) {
      old.forEach((entry, i) => entry.amount !== amounts[i] && changed.push({ id: entry.id, amount: amounts[i]! }));
      continue;
    }
    const carried = carriedEntryIds(old, amounts ?? []);
    for (const entry of old) {
      if (entry.entry_id !== null && !carried.kept.has(entry.entry_id)) tombstones.push(entry.id);
      else deleted.push(entry.id);
    }
    if (amounts !== undefined) inserted.push(...rowsOf(date, amounts, carried.ids));
  }
  const writes = { tombstones, changed, deleted, inserted };
  if (chainsWritesInOneStatement(trx)) await replaceWritesChained(trx, userId, goalId, writes, now);
  else await replaceWritesOneByOne(trx, userId, goalId, writes, now);
}

/** The writes of one PATCH's `sets`; no row is in two of them. */
interface ReplaceWrites {
  /** Old rows with an `entry_id` not carried on: kept as tombstones. */
  tombstones: number[];
  changed: ChangedAmount[];
  deleted: number[];
  /** New rows, in the order their ids must follow. */
  inserted: NewEntry[];
}

/** SQLite: each kind of write in statements of ROWS_PER_STATEMENT rows, then the list version. */
async function replaceWritesOneByOne(trx: Db, userId: number, goalId: number, writes: ReplaceWrites, now: number) {
  const { tombstones, changed, deleted, inserted } = writes;
  for (const ids of inParts(tombstones, ROWS_PER_STATEMENT)) {
    await trx.updateTable('goal_entries').set({ removed_at: now }).where('id', 'in', ids).execute();
  }
  await updateAmounts(trx, changed);
  // Deleted before the new rows go in: a carried entry_id must be free again for the unique index.
  for (const ids of inParts(deleted, ROWS_PER_STATEMENT)) {
    await trx.deleteFrom('goal_entries').where('id', 'in', ids).execute();
  }
  await insertRows(trx, userId, goalId, inserted, now);
  await bumpGoalsVersion(trx, userId);
}

/**
 * PostgreSQL: every write of a PATCH and the list version in one statement, whatever the number of rows, each kind
 * of write taking its rows as arrays (decision 0122). The parts of one statement run in no set order, so new rows
 * that carry an `entry_id` go in by a statement of their own after it: the unique (user_id, entry_id) index must
 * no longer hold the old row that had it.
 */
async function replaceWritesChained(trx: Db, userId: number, goalId: number, writes: ReplaceWrites, now: number) {
  const carriesEntryIds = writes.inserted.some((entry) => entry.entry_id !== null);
  const added = carriesEntryIds ? [] : writes.inserted;
  await replaceChainQuery(trx, {
    userId,
    goalId,
    now,
    tombstones: writes.tombstones,
    changedIds: writes.changed.map((change) => change.id),
    changedAmounts: writes.changed.map((change) => change.amount),
    deleted: writes.deleted,
    addedDates: added.map((entry) => entry.date),
    addedAmounts: added.map((entry) => entry.amount),
  });
  if (carriesEntryIds) await insertRows(trx, userId, goalId, writes.inserted, now);
}

/** The statement of `replaceWritesChained`; pg sends each JavaScript array as one array value. */
const replaceChainQuery = precompiled(
  (
    trx: Db,
    p: {
      userId: number;
      goalId: number;
      now: number;
      tombstones: number[];
      changedIds: number[];
      changedAmounts: number[];
      deleted: number[];
      addedDates: string[];
      addedAmounts: Array<number | null>;
    },
  ) => {
    const statement = sql`with tombstoned as (
        update goal_entries set removed_at = ${p.now} where id = any(cast(${p.tombstones} as integer[]))),
      changed as (
        update goal_entries set amount = v.amount
        from unnest(cast(${p.changedIds} as integer[]), cast(${p.changedAmounts} as double precision[])) as v(id, amount)
        where goal_entries.id = v.id),
      removed as (delete from goal_entries where id = any(cast(${p.deleted} as integer[]))),
      added as (
        insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at)
        select ${p.userId}, ${p.goalId}, t.date, t.amount, null, ${p.now}
        from unnest(cast(${p.addedDates} as text[]), cast(${p.addedAmounts} as double precision[]))
          with ordinality as t(date, amount, n)
        order by t.n),
      version as (${goalsVersionBump(trx, p.userId)})
      select 1 as done`;
    return { compile: () => statement.compile(trx) };
  },
);

/**
 * A date keeping its number of amounts, none with an `entry_id` (nothing to carry or keep as a tombstone), changes
 * its rows' amounts where they are: an update of the amount alone touches no index, where a delete and an insert
 * touch three and check two foreign keys (issue 12). The rows keep their ids, order and `created_at`.
 */
export function changesInPlace(old: LiveEntry[], amounts: readonly number[]): boolean {
  return (
    amounts.length > 0 &&
    old.length === amounts.length &&
    old.every((entry) => entry.entry_id === null && entry.amount !== null)
  );
}

interface ChangedAmount {
  id: number;
  amount: number;
}

/**
 * Rows per amount update. SQLite compares a row's id with the CASE's branches one by one, so a statement costs
 * rows x rows / 2 comparisons: 50 rows a statement cost ~190 µs for 270 rows, 270 in one ~330 µs (measured on
 * better-sqlite3, decision 0116). A join with a VALUES list would be linear, but SQLite's planner then scans the
 * whole table.
 */
const AMOUNTS_PER_UPDATE = 50;

/** The parameter names of each row of an amount update, made once: a PATCH of 270 amounts binds 600 of them. */
const SLOT_PARAMS = Array.from({ length: AMOUNTS_PER_UPDATE }, (_, slot) => ({
  id: `id${slot}`,
  amount: `amount${slot}`,
}));

/**
 * The update of AMOUNTS_PER_UPDATE rows, compiled once: building a CASE of 50 branches cost more than running it. The
 * cast gives PostgreSQL the amount's type.
 */
const amountsUpdateQuery = precompiled((trx: Db, p: Record<string, number>) => {
  const branches = SLOT_PARAMS.map((slot) => sql`when ${p[slot.id]} then cast(${p[slot.amount]} as double precision)`);
  const ids = SLOT_PARAMS.map((slot) => p[slot.id]);
  const update = sql`update goal_entries set amount = case id ${sql.join(branches, sql` `)} end where id in (${sql.join(ids)})`;
  return { compile: () => update.compile(trx) };
});

/**
 * Sets each row's new amount by id, every value bound. A last part shorter than AMOUNTS_PER_UPDATE repeats its last
 * change to fill the statement: the repeated row gets the same amount again.
 */
async function updateAmounts(trx: Db, changes: ChangedAmount[]): Promise<void> {
  for (const part of inParts(changes, AMOUNTS_PER_UPDATE)) {
    const params: Record<string, number> = {};
    SLOT_PARAMS.forEach((names, slot) => {
      const { id, amount } = part[Math.min(slot, part.length - 1)]!;
      params[names.id] = id;
      params[names.amount] = amount;
    });
    await amountsUpdateQuery(trx, params);
  }
}

export function sameAmounts(old: LiveEntry[], amounts: readonly number[]): boolean {
  if (amounts.length === 0) return old.length === 1 && old[0]!.amount === null;
  return old.length === amounts.length && old.every((entry, i) => entry.amount === amounts[i]);
}

/** For each new amount, the `entry_id` of the old entry with an equal amount at the same occurrence, if any. */
function carriedEntryIds(old: LiveEntry[], amounts: readonly number[]) {
  const queues = new Map<number, Array<string | null>>();
  for (const entry of old) {
    if (entry.amount === null) continue;
    const queue = queues.get(entry.amount);
    if (queue) queue.push(entry.entry_id);
    else queues.set(entry.amount, [entry.entry_id]);
  }
  const ids = amounts.map((amount) => queues.get(amount)?.shift() ?? null);
  return { ids, kept: new Set(ids.filter((id): id is string => id !== null)) };
}

/**
 * The first statement of every logging: writes the goal row (without changing it) to lock it, and reads the
 * counters of its size. Empty when the caller has no goal `goalId`.
 */
const lockGoalQuery = precompiled((trx: Db, p: { userId: number; goalId: number }) =>
  trx
    .updateTable('goals')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', p.goalId)
    .where('user_id', '=', p.userId)
    .returning(['sets_dates', 'sets_amount_chars']),
);

async function lockGoal(trx: Db, userId: number, goalId: number): Promise<SetsSize | undefined> {
  const [row] = await lockGoalQuery(trx, { userId, goalId });
  return row && { dates: row.sets_dates, amountChars: row.sets_amount_chars };
}

/** The live rows of one date in logging order (at most 1000 amounts, or the one `[]` marker). */
const dateRowsQuery = precompiled((trx: Db, p: { goalId: number; date: string }) =>
  trx
    .selectFrom('goal_entries')
    .select(['id', 'amount', 'entry_id'])
    .where('goal_id', '=', p.goalId)
    .where('date', '=', p.date)
    .where('removed_at', 'is', null)
    .orderBy('id'),
);

const dateRows = (trx: Db, goalId: number, date: string) => dateRowsQuery(trx, { goalId, date });

const amountsOf = (rows: Array<{ amount: number | null }>): number[] =>
  rows.flatMap((row) => (row.amount === null ? [] : [row.amount]));

type SizeUpdate = {
  goalId: number;
  dates: number;
  amountChars: number;
  now: number;
};

function goalSizeUpdate(trx: QueryCreator<Database>, p: SizeUpdate) {
  return trx
    .updateTable('goals')
    .set({ sets_dates: p.dates, sets_amount_chars: p.amountChars, updated_at: p.now })
    .where('id', '=', p.goalId);
}

const goalSizeQuery = precompiled((trx: Db, p: SizeUpdate) => goalSizeUpdate(trx, p));

/** After an edit: the goal's new size counters and time, and the user's goal list version. */
async function finishEdit(trx: Db, userId: number, goalId: number, size: SetsSize, now: number): Promise<void> {
  await goalSizeQuery(trx, { goalId, dates: size.dates, amountChars: size.amountChars, now });
  await bumpGoalsVersion(trx, userId);
}

/** A logged amount to append, every value bound (nulls included), so its statements compile once. */
type Appended = {
  userId: number;
  goalId: number;
  date: string;
  amount: number;
  entryId: string | null;
  /** The date's `[]` row, which the first amount replaces; null when there is none. */
  markerId: number | null;
  /** The goal's size with the amount. */
  dates: number;
  amountChars: number;
  now: number;
};

function insertEntry(creator: QueryCreator<Database>, p: Appended) {
  return creator
    .insertInto('goal_entries')
    .values({
      user_id: p.userId,
      goal_id: p.goalId,
      date: p.date,
      amount: p.amount,
      entry_id: p.entryId,
      created_at: p.now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'entry_id']).doNothing())
    .returning('id');
}

// In PostgreSQL's chained statement a date without a marker binds a null id, which matches no row.
const deleteRow = (creator: QueryCreator<Database>, id: number | null) =>
  creator.deleteFrom('goal_entries').where('id', '=', id);

const insertEntryQuery = precompiled((trx: Db, p: Appended) => insertEntry(trx, p));
const deleteRowQuery = precompiled((trx: Db, p: { id: number | null }) => deleteRow(trx, p.id));
/** Undo of an entry with an `entry_id`: it stays as a tombstone (decision 0092). */
const tombstoneQuery = precompiled((trx: Db, p: { id: number; now: number }) =>
  trx.updateTable('goal_entries').set({ removed_at: p.now }).where('id', '=', p.id),
);

/** PostgreSQL: the four writes of `appendEntry` in one statement; every write after the insert runs only if it did. */
const appendChainQuery = precompiled((trx: Db, p: Appended) => {
  // Every part of a WITH runs, read or not.
  const insertedOnly = sql<boolean>`exists (select 1 from inserted)`;
  return trx
    .with('inserted', (creator) => insertEntry(creator, p))
    .with('marker', (creator) => deleteRow(creator, p.markerId).where(insertedOnly))
    .with('size', (creator) => goalSizeUpdate(creator, p).where(insertedOnly))
    .with('version', (creator) => goalsVersionBump(creator, p.userId).where(insertedOnly))
    .selectFrom('inserted')
    .select('id');
});

/**
 * Inserts a logged amount and, only when it went in, drops the date's `[]` row and finishes the edit (counters,
 * list version). False when nothing was inserted: a known `entry_id` makes the unique (user_id, entry_id) index
 * refuse the row (also while a log of the same id to another goal is committing: PostgreSQL waits for it).
 * PostgreSQL takes the four writes as one statement, a round trip instead of four (decision 0111).
 */
async function appendEntry(trx: Db, entry: Appended): Promise<boolean> {
  if (chainsWritesInOneStatement(trx)) return (await appendChainQuery(trx, entry)).length > 0;
  if ((await insertEntryQuery(trx, entry)).length === 0) return false;
  if (entry.markerId !== null) await deleteRowQuery(trx, { id: entry.markerId });
  await finishEdit(trx, entry.userId, entry.goalId, entry, entry.now);
  return true;
}

async function entryById(trx: Db, userId: number, entryId: string) {
  return trx
    .selectFrom('goal_entries')
    .select(['id', 'goal_id', 'date', 'amount', 'removed_at'])
    .where('user_id', '=', userId)
    .where('entry_id', '=', entryId)
    .executeTakeFirst();
}

/** The cap a logging would break, checked in this order; null when it fits. */
function capRefusal(size: SetsSize, newDate: boolean, amountsOnDate: number, grown: SetsSize) {
  if (newDate && size.dates >= GOAL_LIMITS.setsDatesMax) {
    return badRequest('too_many_dates', `a goal may hold amounts on at most ${GOAL_LIMITS.setsDatesMax} dates`);
  }
  if (amountsOnDate >= GOAL_LIMITS.amountsPerDateMax) {
    return badRequest('too_many_amounts', `a date may hold at most ${GOAL_LIMITS.amountsPerDateMax} amounts`);
  }
  return setsSizeRefusal(grown);
}

const entryIdConflict = () =>
  conflict('entry_id_conflict', 'entry_id was already used for another goal, date or amount', 'entry_id');

export interface LogRequest {
  date: string;
  amount: number;
  entryId: string | undefined;
}

/**
 * Appends one amount to a date (docs/api-logging.md). With an `entry_id` already known to the user (logged, or
 * removed since: a tombstone), nothing is added: the same goal, date and amount answer the date's amounts, anything
 * else 409 `entry_id_conflict`. Undefined when the caller has no goal `goalId`. On PostgreSQL a new amount usually
 * takes one statement (`logInOneStatement`); the transaction below decides every other case.
 */
export async function logEntry(
  db: Db,
  userId: number,
  goalId: number,
  request: LogRequest,
  now: number,
): Promise<number[] | undefined> {
  if (chainsWritesInOneStatement(db)) {
    const logged = await logInOneStatement(db, userId, goalId, request, now);
    if (logged) return logged;
  }
  const { date, amount, entryId } = request;
  return inWriteTransaction(db, async (trx) => {
    const size = await lockGoal(trx, userId, goalId);
    if (!size) return undefined;
    const rows = await dateRows(trx, goalId, date);
    const amounts = amountsOf(rows);
    // A known entry_id: the date's amounts as they are (read under the lock) for a replay, else 409. Looked up only
    // when needed, so a new logging costs no extra round trip.
    const replay = async (): Promise<number[] | undefined> => {
      const known = entryId === undefined ? undefined : await entryById(trx, userId, entryId);
      if (!known) return undefined;
      if (known.goal_id !== goalId || known.date !== date || known.amount !== amount) throw entryIdConflict();
      return amounts;
    };

    const marker = rows.find((row) => row.amount === null);
    const grown = {
      dates: size.dates + (rows.length === 0 ? 1 : 0),
      amountChars: size.amountChars + amountChars(amount) - (marker ? EMPTY_DATE_CHARS : 0),
    };
    const refusal = capRefusal(size, rows.length === 0, amounts.length, grown);
    if (refusal) {
      // A replay is answered even on a full date or goal.
      const replayed = await replay();
      if (replayed) return replayed;
      throw refusal;
    }

    const appended = await appendEntry(trx, {
      userId,
      goalId,
      date,
      amount,
      entryId: entryId ?? null,
      markerId: marker?.id ?? null,
      ...grown,
      now,
    });
    if (!appended) {
      // The known row decides between replay and 409.
      const replayed = await replay();
      if (replayed) return replayed;
      throw entryIdConflict();
    }
    return [...amounts, amount];
  });
}

/**
 * PostgreSQL: a new amount in one statement, which is a transaction of its own, instead of a transaction of five
 * round trips (decision 0134). It reads the goal's size and the date's rows, locks the goal row only if it is still
 * the version it read (`xmin`), and writes only then: every edit of a goal's entries writes its goal row first, so
 * an unchanged row means an unchanged goal. It adds the amount only where the caps surely hold (checked with room
 * to spare: a new date assumed, a `[]` marker not counted). Undefined when it did nothing: no such goal, a goal
 * changed meanwhile, a goal near a cap, or a known `entry_id`; the transaction then decides as always.
 */
async function logInOneStatement(
  db: Db,
  userId: number,
  goalId: number,
  { date, amount, entryId }: LogRequest,
  now: number,
): Promise<number[] | undefined> {
  const added = amountChars(amount);
  const [row] = await oneStatementLogQuery(db, {
    userId,
    goalId,
    date,
    amount,
    entryId: entryId ?? null,
    now,
    amountChars: added,
    emptyDateChars: EMPTY_DATE_CHARS,
    datesMax: GOAL_LIMITS.setsDatesMax,
    rowsOnDateMax: GOAL_LIMITS.amountsPerDateMax,
    // setsJsonBytes grows by 15 per date and by each amount's characters: with one more date and this amount,
    // the goal stays within the cap while 15 x dates + amount characters is at most this.
    roomForSize: GOAL_LIMITS.setsJsonMaxBytes - setsJsonBytes({ dates: 1, amountChars: added }),
  });
  return row?.inserted ? [...row.amounts, amount] : undefined;
}

const oneStatementLogQuery = precompiled(
  (
    trx: Db,
    p: {
      userId: number;
      goalId: number;
      date: string;
      amount: number;
      entryId: string | null;
      now: number;
      amountChars: number;
      emptyDateChars: number;
      datesMax: number;
      rowsOnDateMax: number;
      roomForSize: number;
    },
  ) => {
    // Every part reads the statement's snapshot; `locked` re-reads the goal row as it is once locked, and a row
    // written since the snapshot no longer matches `seen` (PostgreSQL rechecks a locked row that changed).
    const statement = sql<{ inserted: boolean; amounts: number[] }>`with snap as (
        select goals.xmin as seen, goals.sets_dates as dates, goals.sets_amount_chars as chars,
          day.on_date, day.marker, day.amounts
        from goals cross join lateral (
          select count(*) as on_date, min(e.id) filter (where e.amount is null) as marker,
            coalesce(array_agg(e.amount order by e.id) filter (where e.amount is not null), '{}') as amounts
          from goal_entries e where e.goal_id = goals.id and e.date = ${p.date} and e.removed_at is null) as day
        where goals.id = ${p.goalId} and goals.user_id = ${p.userId}),
      locked as (
        select goals.id from goals
        where goals.id = ${p.goalId} and goals.xmin = (select seen from snap)
          and (select (on_date > 0 or dates < ${p.datesMax}) and on_date < ${p.rowsOnDateMax}
            and 15 * dates + chars <= ${p.roomForSize} from snap)
        for update),
      inserted as (
        insert into goal_entries (user_id, goal_id, date, amount, entry_id, created_at)
        select ${p.userId}, locked.id, ${p.date}, cast(${p.amount} as double precision), cast(${p.entryId} as text),
          ${p.now}
        from locked
        on conflict (user_id, entry_id) do nothing
        returning id),
      marker as (
        delete from goal_entries where id = (select marker from snap) and exists (select 1 from inserted)),
      size as (
        update goals set
          sets_dates = snap.dates + case when snap.on_date = 0 then 1 else 0 end,
          sets_amount_chars = snap.chars + ${p.amountChars}
            - case when snap.marker is null then 0 else ${p.emptyDateChars} end,
          updated_at = ${p.now}
        from snap where goals.id = ${p.goalId} and exists (select 1 from inserted)),
      version as (${goalsVersionBump(trx, p.userId).where(sql<boolean>`exists (select 1 from inserted)`)})
      select exists (select 1 from inserted) as inserted, snap.amounts from snap`;
    return { compile: () => statement.compile(trx) };
  },
);

export type RemoveRequest = { date: string; amount: number } | { date: string; entryId: string };

/**
 * Undo (docs/api-logging.md): by amount, the last live entry of that amount on the date (404 `amount_not_found`
 * when there is none); by `entry_id`, exactly that entry when it is live on this goal and date, else nothing.
 * An entry with an `entry_id` stays as a tombstone (decision 0092); one without is deleted. Returns the date's
 * amounts after the change, or undefined when the caller has no goal `goalId`.
 */
export async function removeEntry(
  db: Db,
  userId: number,
  goalId: number,
  request: RemoveRequest,
  now: number,
  /** The request's Idempotency-Key: a repeat of a removal already made changes nothing (decision 0200). */
  key?: RequestKey,
): Promise<number[] | undefined | 'reused'> {
  const { date } = request;
  return inWriteTransaction(db, async (trx) => {
    const size = await lockGoal(trx, userId, goalId);
    if (!size) return undefined;
    // Claimed after the goal row is locked, so a repeat sent at the same time waits and then finds the key.
    const claim = key && (await claimRequestKey(trx, userId, 'remove_amount', key, now));
    if (claim === 'reused') return 'reused';
    const rows = await dateRows(trx, goalId, date);
    if (claim && !claim.new) return amountsOf(rows);
    let target: (typeof rows)[number] | undefined;
    if ('entryId' in request) {
      target = rows.find((row) => row.entry_id === request.entryId);
      // Not (or no longer) on this goal and date: a retried undo changes nothing.
      if (!target) return amountsOf(rows);
    } else {
      target = rows.filter((row) => row.amount === request.amount).pop();
      if (!target) throw notFound('amount_not_found', `amount ${request.amount} is not logged on ${date}`);
    }
    if (target.entry_id === null) await deleteRowQuery(trx, { id: target.id });
    else await tombstoneQuery(trx, { id: target.id, now });
    const left = rows.filter((row) => row !== target);
    await finishEdit(
      trx,
      userId,
      goalId,
      { dates: size.dates - (left.length === 0 ? 1 : 0), amountChars: size.amountChars - amountChars(target.amount!) },
      now,
    );
    return amountsOf(left);
  });
}
