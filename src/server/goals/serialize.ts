import { GOAL_LIMITS, type GoalSets } from '../../common/goal.js';
import { badRequest, type HttpError } from '../http/errors.js';
import type { GoalRow } from '../db/schema.js';

/** The goal row's columns a Goal answer is made of (its `sets` come from `goal_entries`). */
export type GoalRecord = Pick<GoalRow, 'id' | 'name' | 'unit' | 'daily' | 'days' | 'start'>;

/** One live row of `goal_entries` as the list reads it: `amount` null marks a date kept with no amounts. */
export interface EntryRow {
  goal_id: number;
  date: string;
  amount: number | null;
}

/*
 * `sets` are written as text: dates ascending (the query's order; `YYYY-MM-DD` sorts as text), amounts in logging
 * order, no white space (docs/decisions/0033-goal-list-hot-path.md, 0090-goal-entries.md). Dates are checked
 * calendar dates and amounts finite numbers, so splicing them is safe, and `String(amount)` is `JSON.stringify`'s
 * text for every finite number.
 */

/**
 * What a goal's `sets` count towards its size cap: dates and, per amount, its JSON length plus one separator (a
 * date kept as `[]` counts 1 instead: it has no amount, but no comma is saved either).
 */
export interface SetsSize {
  dates: number;
  amountChars: number;
}

export const amountChars = (amount: number): number => String(amount).length + 1;
export const EMPTY_DATE_CHARS = 1;

/**
 * The length of `sets` as the goal list writes it: `{`, per date `"YYYY-MM-DD":[` and `]` (15 characters) and a
 * comma, per amount its text and a comma, less the last comma of each list, plus `}`. Kept as two counters on the goal row, so a logging checks the cap
 * without reading the goal's other dates.
 */
export function setsJsonBytes(size: SetsSize): number {
  return size.dates === 0 ? 2 : 1 + 15 * size.dates + size.amountChars;
}

/** 400 `goal_too_large` when `sets` of this size would be above the cap (the same 128 KiB as before 0006). */
export function setsSizeRefusal(size: SetsSize): HttpError | null {
  return setsJsonBytes(size) > GOAL_LIMITS.setsJsonMaxBytes
    ? badRequest('goal_too_large', `a goal's sets may take at most ${GOAL_LIMITS.setsJsonMaxBytes} bytes stored`)
    : null;
}

export function checkSetsSize(size: SetsSize): void {
  const refusal = setsSizeRefusal(size);
  if (refusal) throw refusal;
}

export function setsSize(sets: GoalSets): SetsSize {
  let chars = 0;
  for (const amounts of Object.values(sets)) {
    if (amounts.length === 0) chars += EMPTY_DATE_CHARS;
    for (const amount of amounts) chars += amountChars(amount);
  }
  return { dates: Object.keys(sets).length, amountChars: chars };
}

/** `sets` as the goal list writes it, from a checked object (the answer of POST /api/goals). */
export function setsJson(sets: GoalSets): string {
  const parts = Object.keys(sets)
    .sort()
    .map((date) => `"${date}":[${sets[date]!.map(String).join(',')}]`);
  return `{${parts.join(',')}}`;
}

/** One Goal as JSON text, `sets` spliced in as built here. `id` becomes a string, as the spec says. */
export function goalJson(goal: GoalRecord, sets: string): string {
  return (
    `{"id":"${goal.id}","name":${JSON.stringify(goal.name)},"unit":${JSON.stringify(goal.unit)},` +
    `"daily":${JSON.stringify(goal.daily)},"days":${JSON.stringify(goal.days)},` +
    `"start":${JSON.stringify(goal.start)},"sets":${sets}}`
  );
}

/**
 * Each of `goals` (in id order) with its entries, from `parts` of the same user's entries ordered by goal, date and
 * id (`entryParts`). Only one goal's entries are held at a time, so a list of millions of amounts costs the memory
 * of its largest goal, not of all of them (decision 0116). An entry of a goal not in `goals` (created after they
 * were read) is skipped.
 */
export async function* goalsWithEntries<Goal extends { id: number }>(
  goals: Goal[],
  parts: AsyncIterable<EntryRow[]>,
): AsyncGenerator<[Goal, EntryRow[]]> {
  let next = 0;
  let entries: EntryRow[] = [];
  for await (const part of parts) {
    for (const entry of part) {
      while (next < goals.length && goals[next]!.id < entry.goal_id) {
        yield [goals[next++]!, entries];
        entries = [];
      }
      if (next < goals.length && goals[next]!.id === entry.goal_id) entries.push(entry);
    }
  }
  for (; next < goals.length; next++) {
    yield [goals[next]!, entries];
    entries = [];
  }
}

/** One goal's `sets` as the goal list writes it, from its entries in date and id order. */
export function entriesSetsJson(entries: ReadonlyArray<Pick<EntryRow, 'date' | 'amount'>>): string {
  if (entries.length === 0) return '{}';
  let sets = '{';
  let date: string | null = null;
  let first = true;
  for (const entry of entries) {
    if (entry.date !== date) {
      sets += date === null ? `"${entry.date}":[` : `],"${entry.date}":[`;
      date = entry.date;
      first = true;
    }
    if (entry.amount !== null) {
      sets += first ? String(entry.amount) : `,${entry.amount}`;
      first = false;
    }
  }
  return `${sets}]}`;
}

/**
 * The goal list: `goals` in id order with their entries read in `parts`, as the bytes of one JSON text. Each goal's
 * text becomes bytes at once, outside the JavaScript heap, so the heap holds one goal's text at a time even for a
 * list of 25 MiB (decision 0116).
 */
export async function goalListBody(goals: GoalRecord[], parts: AsyncIterable<EntryRow[]>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const [goal, entries] of goalsWithEntries(goals, parts)) {
    chunks.push(Buffer.from(`${chunks.length === 0 ? '[' : ','}${goalJson(goal, entriesSetsJson(entries))}`));
  }
  chunks.push(Buffer.from(chunks.length === 0 ? '[]' : ']'));
  return Buffer.concat(chunks);
}

/** One goal's entries as a `sets` object (the export). */
export function entriesSets(entries: EntryRow[]): GoalSets {
  const sets: GoalSets = {};
  for (const entry of entries) {
    const amounts = (sets[entry.date] ??= []);
    if (entry.amount !== null) amounts.push(entry.amount);
  }
  return sets;
}
