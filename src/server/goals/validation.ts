import {
  GOAL_DEFAULTS,
  GOAL_LIMITS,
  type Goal,
  type GoalSets,
  isAmount,
  isDailyTarget,
  isDateKey,
  isDayCount,
  isLoggableAmount,
} from '../../common/goal.js';
import { fieldPath } from '../../common/contract/error-codes.js';
import { LIMITS } from '../../common/limits.js';
import { cleanName } from '../../common/names.js';
import { codePointLength } from '../../common/text.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { parseStart } from './start.js';

/**
 * Every goal field is checked here, by hand rather than by the route schema, so each refusal is a 400 with a
 * stable code and a message naming the field (docs/decisions/0032-goal-validation.md). Types are never coerced:
 * "5" is not a number.
 */

/** A checked goal, ready to store: everything of the API's Goal but its id. */
export type NewGoal = Omit<Goal, 'id'>;

/** The fields a PATCH may change; `start` is not among them (docs/decisions/0030-goal-api-choices.md). */
export type GoalChanges = Partial<Omit<NewGoal, 'start'>>;

/** A refusal about one goal field: `field` is `name`, `daily`, `sets.2026-01-15[3]` ... (decision 0081). */
const invalid = (field: string, message: string): HttpError => badRequest('invalid_goal', message, field);

/** PostgreSQL's `integer` ends here; a larger id cannot exist, and asking for one must not become a 500. */
const MAX_GOAL_ID = 2_147_483_647;

/** The goal id of a path, or null when it cannot name a goal (the route then answers 404). */
export function parseGoalId(raw: string): number | null {
  if (!/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_GOAL_ID ? id : null;
}

/** The answer for a goal id that names none of the caller's goals (another user's goal looks missing). */
export const goalNotFound = (): HttpError => notFound('goal_not_found', 'Goal not found');

export function checkedNewGoal(body: Record<string, unknown>, nowMs: number, timeZone: string): NewGoal {
  return {
    name: checkedName(body.name),
    unit: body.unit === undefined ? GOAL_DEFAULTS.unit : checkedUnit(body.unit),
    daily: body.daily === undefined ? GOAL_DEFAULTS.daily : checkedDaily(body.daily),
    days: body.days === undefined ? GOAL_DEFAULTS.days : checkedDays(body.days),
    start: parseStart(body.start, nowMs, timeZone),
    sets: body.sets === undefined ? {} : checkedSets(body.sets),
  };
}

/** Only the fields present are checked and returned; anything else in the body (e.g. `start`, `id`) is ignored. */
export function checkedGoalChanges(body: Record<string, unknown>): GoalChanges {
  const changes: GoalChanges = {};
  if (body.name !== undefined) changes.name = checkedName(body.name);
  if (body.unit !== undefined) changes.unit = checkedUnit(body.unit);
  if (body.daily !== undefined) changes.daily = checkedDaily(body.daily);
  if (body.days !== undefined) changes.days = checkedDays(body.days);
  if (body.sets !== undefined) changes.sets = checkedSets(body.sets);
  return changes;
}

function checkedName(raw: unknown): string {
  const name = raw === undefined ? '' : checkedText('name', raw, LIMITS.goalNameMax);
  if (name === '') throw badRequest('missing_field', 'name must not be empty', 'name');
  return name;
}

/** A unit that is empty after trimming means the default unit, as when it is left out. */
function checkedUnit(raw: unknown): string {
  return checkedText('unit', raw, LIMITS.goalUnitMax) || GOAL_DEFAULTS.unit;
}

/**
 * Cleaned text (one line, trimmed of what shows as nothing, decision 0205) of at most `max` characters (code
 * points, so an emoji counts once).
 */
function checkedText(field: string, raw: unknown, max: number): string {
  if (typeof raw !== 'string') throw invalid(field, `${field} must be a string`);
  const text = cleanName(raw);
  if (codePointLength(text) > max) throw invalid(field, `${field} must have at most ${max} characters`);
  // U+0000, which PostgreSQL's text cannot hold, never gets here: the JSON body parser refuses it (http/json-body.ts).
  return text;
}

function checkedDaily(raw: unknown): number {
  if (isDailyTarget(raw)) return raw;
  // The rule is isDailyTarget's; this only picks the message that names the bound that was missed.
  const tooLarge = typeof raw === 'number' && Number.isFinite(raw) && raw > GOAL_LIMITS.dailyMax;
  throw invalid(
    'daily',
    tooLarge ? `daily must be at most ${GOAL_LIMITS.dailyMax}` : 'daily must be a finite number greater than 0',
  );
}

function checkedDays(raw: unknown): number {
  if (!isDayCount(raw)) throw invalid('days', `days must be an integer from 1 to ${LIMITS.goalDaysMax}`);
  return raw;
}

/** A fresh `sets` object holding only checked dates and amounts (the store orders the dates when it writes). */
function checkedSets(raw: unknown): GoalSets {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid('sets', 'sets must be an object of dates to arrays of amounts');
  }
  const entries = Object.entries(raw);
  if (entries.length > GOAL_LIMITS.setsDatesMax)
    throw invalid('sets', `sets may hold at most ${GOAL_LIMITS.setsDatesMax} dates`);
  const sets: GoalSets = {};
  for (const [date, amounts] of entries) {
    // A key that is no date is named as `sets`: echoing arbitrary client text as a path would be no help.
    if (!isDateKey(date))
      throw new SetsRefusal('sets', `sets key ${quoted(date)} is not a calendar date YYYY-MM-DD`, date);
    // The field's path is made only for a refusal: a PATCH of 90 dates spent 1 % of its time on paths never shown.
    const refused = (message: string, index?: number) =>
      new SetsRefusal(fieldPath(index === undefined ? ['sets', date] : ['sets', date, index]), message, date);
    if (!Array.isArray(amounts)) throw refused(`sets.${date} must be an array of amounts`);
    if (amounts.length > GOAL_LIMITS.amountsPerDateMax) {
      throw refused(`sets.${date} may hold at most ${GOAL_LIMITS.amountsPerDateMax} amounts`);
    }
    const badIndex = amounts.findIndex((amount) => !isAmount(amount));
    if (badIndex !== -1) {
      throw refused(
        `sets.${date} amounts must be finite numbers from -${GOAL_LIMITS.amountAbsMax} to ${GOAL_LIMITS.amountAbsMax}`,
        badIndex,
      );
    }
    sets[date] = amounts;
  }
  return sets;
}

/**
 * A refusal of one `sets` entry (a key that is no date, an entry that is no array of amounts). The date stays on the
 * error for the import, which answers it as `key` beside the field so a person finds it in the file (decision 0179);
 * the goal routes answer the field alone.
 */
export class SetsRefusal extends HttpError {
  constructor(
    field: string,
    message: string,
    readonly date: string,
  ) {
    super(400, 'invalid_goal', message, { field });
    this.name = 'SetsRefusal';
  }
}

/** The date of a logging path; 400 `invalid_date` unless it is a real calendar date. */
export function checkedLogDate(raw: string): string {
  if (!isDateKey(raw))
    throw badRequest('invalid_date', `date ${quoted(raw)} is not a calendar date YYYY-MM-DD`, 'date');
  return raw;
}

/** The amount of a logging request; 400 `invalid_amount` unless it is a finite number other than 0 within the cap. */
export function checkedLogAmount(raw: unknown): number {
  if (!isLoggableAmount(raw)) {
    throw badRequest(
      'invalid_amount',
      `amount must be a finite number other than 0, from -${GOAL_LIMITS.amountAbsMax} to ${GOAL_LIMITS.amountAbsMax}`,
      'amount',
    );
  }
  return raw;
}

/** What a client may choose as `entry_id` (the web app uses `crypto.randomUUID()`). */
const ENTRY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The `entry_id` of a logging request; 400 `invalid_entry_id` unless it is 1–64 of A-Z a-z 0-9 _ -. */
export function checkedEntryId(raw: unknown): string {
  if (typeof raw !== 'string' || !ENTRY_ID.test(raw)) {
    throw badRequest('invalid_entry_id', 'entry_id must be 1 to 64 characters of A-Z a-z 0-9 _ -', 'entry_id');
  }
  return raw;
}

/** Echoes client text in a message without letting it grow the message unboundedly. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 24 ? `${text.slice(0, 24)}…` : text);
}
