import { Type, type Static } from 'typebox';
import { GOAL_LIMITS } from '../goal.js';
import { LIMITS } from '../limits.js';
import { LOCALES } from '../locales.js';
import { REMINDER_CHANNELS, REMINDER_TIME_PATTERN } from '../reminders.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './export-identity.js';

/**
 * The Steady export document, version 1 (docs/api-data.md, docs/steady-export.schema.json, decision 0070).
 * This TypeBox schema is the single description of the format: docs/steady-export.schema.json is generated from
 * it (a test keeps the two equal) and every export is checked against it in the tests.
 *
 * Growing the format: a goal or the account may gain new OPTIONAL keys without a new version (`position`,
 * `archived_at` and `reminder` came so, decision 0125); an importer that does not know a key refuses the document
 * rather than drop the value silently. Only a change that an old reader would misread bumps `version`.
 */
export { EXPORT_FORMAT, EXPORT_VERSION };

/** The largest `position` a goal may carry: goal_layout.position is a 32-bit integer on PostgreSQL. */
export const EXPORT_POSITION_MAX = 2_147_483_647;

const isoTime = (description = 'UTC instant, ISO 8601 (Date.prototype.toISOString)') =>
  Type.String({ format: 'date-time', description });
const IsoTime = isoTime();

const ExportedGoal = Type.Object(
  {
    id: Type.Optional(
      Type.String({
        pattern: '^[0-9]+$',
        description: 'The goal id in the exporting server; ignored on import (a new id is given)',
      }),
    ),
    name: Type.String({ minLength: 1, maxLength: LIMITS.goalNameMax }),
    unit: Type.String({ minLength: 1, maxLength: LIMITS.goalUnitMax }),
    daily: Type.Number({ exclusiveMinimum: 0, maximum: GOAL_LIMITS.dailyMax }),
    days: Type.Integer({ minimum: 1, maximum: LIMITS.goalDaysMax }),
    start: Type.String({
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
      description: 'Wall-clock YYYY-MM-DD HH:MM:SS, exactly as GET /api/goals shows it',
    }),
    sets: Type.Record(
      Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }),
      Type.Array(Type.Number({ minimum: -GOAL_LIMITS.amountAbsMax, maximum: GOAL_LIMITS.amountAbsMax }), {
        maxItems: GOAL_LIMITS.amountsPerDateMax,
      }),
      { maxProperties: GOAL_LIMITS.setsDatesMax, description: 'Amounts per local calendar date, in logging order' },
    ),
    created_at: Type.Optional(IsoTime),
    updated_at: Type.Optional(IsoTime),
    position: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: EXPORT_POSITION_MAX,
        description:
          "The goal's place in the owner's order (GET /api/goal-layout), lowest first; absent for a goal never " +
          'placed, which follows the placed ones in creation order',
      }),
    ),
    archived_at: Type.Optional(isoTime('When the goal was archived (UTC, ISO 8601); absent for a goal in use')),
    reminder: Type.Optional(
      Type.Object(
        {
          time: Type.String({
            pattern: REMINDER_TIME_PATTERN,
            description: "HH:MM in the user's time zone",
          }),
          channel: Type.String({ enum: [...REMINDER_CHANNELS] }),
        },
        {
          additionalProperties: false,
          description: 'The daily reminder (PUT /api/goals/{id}/reminder); absent when none',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const ExportedAccount = Type.Object(
  {
    email: Type.String(),
    name: Type.String(),
    locale: Type.String({ enum: [...LOCALES] }),
    created_at: Type.Optional(IsoTime),
  },
  { additionalProperties: false, description: 'Informative: an import never changes the importing account' },
);

export const ExportDocumentSchema = Type.Object(
  {
    format: Type.Literal(EXPORT_FORMAT),
    version: Type.Literal(EXPORT_VERSION),
    exported_at: IsoTime,
    account: Type.Optional(ExportedAccount),
    goals: Type.Array(ExportedGoal),
  },
  { additionalProperties: false },
);

export type ExportDocument = Static<typeof ExportDocumentSchema>;
export type ExportedGoal = Static<typeof ExportedGoal>;

/** The JSON Schema file under docs/, as written by `jsonSchemaDocument()`. */
export const SCHEMA_DOC_PATH = 'docs/steady-export.schema.json';

/** The schema with the JSON Schema header fields, as published in docs/. */
export function jsonSchemaDocument(): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Steady export, version 1',
    ...JSON.parse(JSON.stringify(ExportDocumentSchema)),
  };
}
