import type { NewGoal } from '../goals/validation.js';
import { checkedGoalChanges, SetsRefusal } from '../goals/validation.js';
import { parseStart } from '../goals/start.js';
import { setsSize, setsSizeRefusal } from '../goals/serialize.js';
import { HttpError } from '../http/errors.js';
import { EXPORT_FORMAT, EXPORT_POSITION_MAX, EXPORT_VERSION } from '../../common/contract/export-format.js';
import { isReminderChannel, isReminderTime, REMINDER_REFUSALS, type ReminderChannel } from '../../common/reminders.js';

/** A goal of an import, checked and ready to store, with the times, layout and reminder it keeps from the export. */
export interface ImportedGoal extends NewGoal {
  createdAt: number | null;
  updatedAt: number | null;
  /** Its place in the exporter's order; null when it had none. */
  position: number | null;
  archivedAt: number | null;
  reminder: { time: string; channel: ReminderChannel } | null;
}

/**
 * A refused import: 400 `invalid_import` whose `field` is the path of the bad value (`goals[1].daily`), so a
 * person can find it in a 20 MB file. The route answers `{ error, code, field }`, and `key` where a key is refused.
 */
export class ImportProblem extends HttpError {
  /** `key`: the `sets` date the refusal is about (one that is no date, or that of a bad amount); decision 0179. */
  constructor(field: string, message: string, key?: string) {
    super(400, 'invalid_import', `${field}: ${message}`, key === undefined ? { field } : { field, key });
    this.name = 'ImportProblem';
  }
}

const TOP_LEVEL_KEYS = new Set(['format', 'version', 'exported_at', 'account', 'goals']);
const REQUIRED_GOAL_FIELDS = ['name', 'unit', 'daily', 'days', 'start', 'sets'] as const;
const GOAL_KEYS = new Set<string>([
  ...REQUIRED_GOAL_FIELDS,
  'id',
  'created_at',
  'updated_at',
  'position',
  'archived_at',
  'reminder',
]);
const REMINDER_KEYS = new Set(['time', 'channel']);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * Checks a whole export document before anything is written and returns its goals. Each goal field goes through
 * the same checks as the goal API (`checkedGoalChanges`), so an import can hold nothing the API would refuse;
 * `start`, which the API never takes as given, must be exactly `YYYY-MM-DD HH:MM:SS`. A key this version does
 * not know is refused, never dropped silently (decision 0070).
 */
export function checkedImport(document: unknown): ImportedGoal[] {
  const doc = objectAt('', document);
  for (const key of Object.keys(doc)) if (!TOP_LEVEL_KEYS.has(key)) throw new ImportProblem(key, 'unknown field');
  if (doc.format !== EXPORT_FORMAT) throw new ImportProblem('format', `must be "${EXPORT_FORMAT}"`);
  if (doc.version !== EXPORT_VERSION)
    throw new ImportProblem('version', `must be ${EXPORT_VERSION}; this server reads version ${EXPORT_VERSION} only`);
  if (doc.exported_at !== undefined) isoTime('exported_at', doc.exported_at);
  if (doc.account !== undefined) objectAt('account', doc.account);
  if (!Array.isArray(doc.goals)) throw new ImportProblem('goals', 'must be an array of goals');
  return doc.goals.map((goal, index) => checkedGoal(`goals[${index}]`, goal));
}

function checkedGoal(path: string, raw: unknown): ImportedGoal {
  const goal = objectAt(path, raw);
  for (const key of Object.keys(goal))
    if (!GOAL_KEYS.has(key)) throw new ImportProblem(`${path}.${key}`, 'unknown field');
  for (const field of REQUIRED_GOAL_FIELDS) {
    if (goal[field] === undefined) throw new ImportProblem(`${path}.${field}`, 'is required');
  }
  if (goal.id !== undefined && (typeof goal.id !== 'string' || !/^\d{1,10}$/.test(goal.id))) {
    throw new ImportProblem(`${path}.id`, 'must be a numeric string');
  }
  const fields: Partial<NewGoal> = {};
  for (const field of ['name', 'unit', 'daily', 'days', 'sets'] as const) {
    try {
      Object.assign(fields, checkedGoalChanges({ [field]: goal[field] }));
    } catch (error) {
      // The date of a refused `sets` entry goes beside the field (decision 0179).
      if (error instanceof SetsRefusal) throw new ImportProblem(`${path}.${field}`, error.message, error.date);
      if (error instanceof HttpError) throw new ImportProblem(`${path}.${field}`, error.message);
      throw error;
    }
  }
  // Checked here, not first when stored: the answer then names the goal (its code stays the API's).
  const tooLarge = setsSizeRefusal(setsSize(fields.sets!));
  if (tooLarge) {
    throw new HttpError(400, tooLarge.code, `${path}.sets: ${tooLarge.message}`, { field: `${path}.sets` });
  }
  return {
    ...(fields as Omit<NewGoal, 'start'>),
    start: checkedStart(`${path}.start`, goal.start),
    createdAt: goal.created_at === undefined ? null : isoTime(`${path}.created_at`, goal.created_at),
    updatedAt: goal.updated_at === undefined ? null : isoTime(`${path}.updated_at`, goal.updated_at),
    position: goal.position === undefined ? null : checkedPosition(`${path}.position`, goal.position),
    archivedAt: goal.archived_at === undefined ? null : isoTime(`${path}.archived_at`, goal.archived_at),
    reminder: goal.reminder === undefined ? null : checkedReminder(`${path}.reminder`, goal.reminder),
  };
}

function checkedPosition(path: string, raw: unknown): number {
  if (!Number.isInteger(raw) || (raw as number) < 0 || (raw as number) > EXPORT_POSITION_MAX) {
    throw new ImportProblem(path, 'must be a whole number from 0');
  }
  return raw as number;
}

/** As PUT /api/goals/{id}/reminder checks it. */
function checkedReminder(path: string, raw: unknown): { time: string; channel: ReminderChannel } {
  const reminder = objectAt(path, raw);
  for (const key of Object.keys(reminder))
    if (!REMINDER_KEYS.has(key)) throw new ImportProblem(`${path}.${key}`, 'unknown field');
  const { time, channel } = reminder;
  if (!isReminderTime(time)) throw new ImportProblem(`${path}.time`, REMINDER_REFUSALS.time);
  if (!isReminderChannel(channel)) throw new ImportProblem(`${path}.channel`, REMINDER_REFUSALS.channel);
  return { time, channel };
}

/** Only the canonical form the API answers with; reading it back must give the very same text. */
function checkedStart(path: string, raw: unknown): string {
  const canonical =
    typeof raw === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(raw) && parseStart(raw, 0, 'UTC') === raw;
  if (!canonical) throw new ImportProblem(path, 'must be a date-time YYYY-MM-DD HH:MM:SS');
  return raw;
}

function isoTime(path: string, raw: unknown): number {
  const ms = typeof raw === 'string' && ISO_INSTANT.test(raw) ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(ms)) throw new ImportProblem(path, 'must be a UTC time like 2026-01-15T09:00:00.000Z');
  return ms;
}

function objectAt(path: string, raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ImportProblem(path || 'body', 'must be a JSON object');
  }
  return raw as Record<string, unknown>;
}
