import { EXPORT_FORMAT, EXPORT_VERSION } from '../common/contract/export-identity.js';
import { goalFieldLabel, isGoalField } from './goal-fields.js';
import { t } from './i18n/index.js';

/**
 * A chosen file's text, or null when it is not UTF-8 (a Steady export an editor saved as Latin-1): read with
 * `file.text()`, each bad byte would become U+FFFD and a name would be imported so ("Pomp\uFFFDki", decision 0188).
 * Decoded as a stream that goes on: a character cut off at the very end (a download interrupted inside it) is left
 * out rather than refused, so a cut-off export is still told as damaged (decision 0179).
 */
export function fileText(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return null;
  }
}

/**
 * Whether a chosen file's JSON is a Steady export at all (its `format`), checked before it is sent: a file that is
 * not is refused in a plain sentence, not by the path of a key it happens to have.
 */
export function isSteadyExport(document: unknown): boolean {
  return (document as { format?: unknown } | null)?.format === EXPORT_FORMAT;
}

/**
 * A file that is no JSON: a Steady export cut off or damaged still names its format near its start (decision 0179),
 * so it is told apart from a file that never was one. The codes are what the server would answer.
 */
export function unreadableFileCode(text: string): 'invalid_json' | 'invalid_import' {
  return text.includes(`"${EXPORT_FORMAT}"`) ? 'invalid_json' : 'invalid_import';
}

/** An export of a later version of the format than this Steady reads, which only a newer Steady writes. */
export function isNewerExport(document: unknown): boolean {
  const version = (document as { version?: unknown } | null)?.version;
  return Number.isInteger(version) && (version as number) > EXPORT_VERSION;
}

/** Where a refused import file's first bad value is: inside a goal (by its place in the file and its name) or not. */
export interface ImportPlace {
  /** The path inside the goal when `goal` is known, else the whole path. */
  field: string;
  goal: { number: number; name: string } | null;
  /** Inside a known goal's `sets`: the date the server named (a refused key, or the date of a bad amount). */
  day: string | null;
}

/**
 * POST /api/import answers the bad value's path as `field`, e.g. `goals[3].daily`, and for a goal's `sets` the date
 * concerned as `key` (a key that is no date, or the date of a bad amount). A path inside a goal is told by the goal's
 * place in the file (counted from 1) and its name, which is how a person finds it in a big file, and a value of `sets`
 * by its date as the file writes it (a date that is none has no other form); only these are kept, not the document.
 */
export function importPlace(field: string, document: unknown, key: string | null = null): ImportPlace {
  const inGoal = /^goals\[(\d+)\]\.(.+)$/.exec(field);
  const goals = (document as { goals?: unknown } | null)?.goals;
  if (!inGoal || !Array.isArray(goals)) return { field, goal: null, day: null };
  const name = (goals[Number(inGoal[1])] as { name?: unknown } | null | undefined)?.name;
  if (typeof name !== 'string' || name.trim() === '') return { field, goal: null, day: null };
  const inGoalField = inGoal[2]!;
  return {
    field: inGoalField,
    goal: { number: Number(inGoal[1]) + 1, name },
    day: inGoalField === 'sets' ? key : null,
  };
}

/**
 * Where the bad value is, in words; a goal's value with a field in the goal form is named by that field's label, a
 * value of `sets` by its date, and `sets` as a whole in words.
 */
export function importPlaceText({ field, goal, day }: ImportPlace): string {
  if (!goal) return t('settings.importWhere', { field });
  if (day !== null) return t('settings.importWhereDay', { number: goal.number, name: goal.name, date: day });
  const named = isGoalField(field) ? goalFieldLabel(field) : field === 'sets' ? t('settings.importSets') : field;
  return t('settings.importWhereGoal', { number: goal.number, name: goal.name, field: named });
}
