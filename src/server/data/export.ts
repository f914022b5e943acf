import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportDocument,
  type ExportedGoal,
} from '../../common/contract/export-format.js';
import { cleanName } from '../../common/names.js';
import type { StoredGoal } from './store.js';

export interface ExportAccount {
  email: string;
  name: string;
  locale: string;
  created_at: number;
}

/**
 * The export document as JSON text, in parts: the goals exactly as `GET /api/goals` shows them, plus what else is
 * stored about them (times, place in the order, archive, reminder; decision 0125). Each goal is written as it
 * arrives, so an export is sent without ever holding all of it.
 */
export async function* exportJson(
  account: ExportAccount,
  goals: AsyncIterable<StoredGoal>,
  now: number,
): AsyncGenerator<string> {
  const head: Omit<ExportDocument, 'goals'> = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: iso(now),
    account: {
      email: account.email,
      name: account.name,
      locale: account.locale,
      created_at: iso(account.created_at),
    },
  };
  // The same text as JSON.stringify of the whole document: `goals` is its last key.
  yield `${JSON.stringify(head).slice(0, -1)},"goals":[`;
  let separator = '';
  for await (const goal of goals) {
    yield separator + JSON.stringify(exportedGoal(goal));
    separator = ',';
  }
  yield ']}';
}

function exportedGoal(goal: StoredGoal): ExportedGoal {
  return {
    id: String(goal.id),
    name: goal.name,
    unit: goal.unit,
    daily: goal.daily,
    days: goal.days,
    start: goal.start,
    sets: goal.sets,
    created_at: iso(goal.created_at),
    updated_at: iso(goal.updated_at),
    ...(goal.position !== null && { position: goal.position }),
    ...(goal.archived_at !== null && { archived_at: iso(goal.archived_at) }),
    ...(goal.reminder !== null && { reminder: goal.reminder }),
  };
}

/** `steady-export-2026-01-15.json`: the UTC date of the export, like `exported_at`. */
export function exportFileName(now: number, extension: 'json' | 'csv'): string {
  return `steady-export-${iso(now).slice(0, 10)}.${extension}`;
}

export const CSV_HEADER = ['goal_id', 'goal', 'unit', 'date', 'amount'];

/** How a spreadsheet program reads CSV where the account's language is spoken (decision 0146). */
export interface CsvDialect {
  separator: ',' | ';';
  decimalMark: '.' | ',';
}

/**
 * German and Polish spreadsheets (Excel by the system's region) split a CSV on `;` and read `2,5` as two and a half;
 * with commas they show every row in one column. English ones split on `,` and read `2.5`.
 */
export function csvDialect(locale: string): CsvDialect {
  return locale === 'de' || locale === 'pl'
    ? { separator: ';', decimalMark: ',' }
    : { separator: ',', decimalMark: '.' };
}

/** The CSV export's parts are about this long (each ends with the row that reaches it). */
export const CSV_PART_CHARS = 64 * 1024;

/**
 * One row per logged amount, in goal, date and logging order, RFC 4180 with CRLF (separated as `dialect` says),
 * UTF-8 with a byte order mark so spreadsheet programs read emoji and umlauts right. Names and units are cleaned as
 * they are stored now (decision 0205), so a row stored before with a newline is still one line. Text cells are always quoted,
 * and one that a spreadsheet would take as a formula (`=`, `+`, `-`, `@`, tab, CR) starts with an apostrophe (OWASP
 * CSV injection).
 */
export async function* exportCsv(goals: AsyncIterable<StoredGoal>, dialect: CsvDialect): AsyncGenerator<string> {
  const { separator, decimalMark } = dialect;
  let part = `\uFEFF${CSV_HEADER.join(separator)}\r\n`;
  // One goal's rows at a time (a CSV of millions of amounts is hundreds of megabytes, decision 0116), sent in parts
  // of about CSV_PART_CHARS: one goal's rows alone may be megabytes (decision 0224).
  for await (const goal of goals) {
    const { sets } = goal;
    const [name, unit] = [csvText(cleanName(goal.name)), csvText(cleanName(goal.unit))];
    for (const date of Object.keys(sets).sort()) {
      for (const amount of sets[date]!) {
        const number = String(amount).replace('.', decimalMark);
        part += `${[String(goal.id), name, unit, date, number].join(separator)}\r\n`;
        if (part.length >= CSV_PART_CHARS) {
          yield part;
          part = '';
        }
      }
    }
  }
  if (part.length > 0) yield part;
}

export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
