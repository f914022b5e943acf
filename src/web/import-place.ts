import { EXPORT_FORMAT } from '../common/contract/export-identity.js';
import { goalFieldLabel, isGoalField } from './goal-fields.js';
import { t } from './i18n/index.js';

/**
 * Whether a chosen file's JSON is a Steady export at all (its `format`), checked before it is sent: a file that is
 * not is refused in a plain sentence, not by the path of a key it happens to have.
 */
export function isSteadyExport(document: unknown): boolean {
  return (document as { format?: unknown } | null)?.format === EXPORT_FORMAT;
}

/** Where a refused import file's first bad value is: inside a goal (by its place in the file and its name) or not. */
export interface ImportPlace {
  /** The path inside the goal when `goal` is known, else the whole path. */
  field: string;
  goal: { number: number; name: string } | null;
}

/**
 * POST /api/import answers the bad value's path as `field`, e.g. `goals[3].sets.2026-01-02[0]`. A path inside a goal
 * is told by the goal's place in the file (counted from 1) and its name, which is how a person finds it in a big
 * file; only these are kept, not the document.
 */
export function importPlace(field: string, document: unknown): ImportPlace {
  const inGoal = /^goals\[(\d+)\]\.(.+)$/.exec(field);
  const goals = (document as { goals?: unknown } | null)?.goals;
  if (!inGoal || !Array.isArray(goals)) return { field, goal: null };
  const name = (goals[Number(inGoal[1])] as { name?: unknown } | null | undefined)?.name;
  if (typeof name !== 'string' || name.trim() === '') return { field, goal: null };
  return { field: inGoal[2]!, goal: { number: Number(inGoal[1]) + 1, name } };
}

/** Where the bad value is, in words; a goal's value with a field in the goal form is named by that field's label. */
export function importPlaceText({ field, goal }: ImportPlace): string {
  if (!goal) return t('settings.importWhere', { field });
  const named = isGoalField(field) ? goalFieldLabel(field) : field;
  return t('settings.importWhereGoal', { number: goal.number, name: goal.name, field: named });
}
