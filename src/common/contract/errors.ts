/** The error body of every refusal; the codes are in error-codes.ts (no TypeBox there, so the web app can load it). */
import { type Static, Type } from 'typebox';
import { ERROR_CODES } from './error-codes.js';

export { ERROR_CODES, type ErrorCode, fieldPath, isErrorCode } from './error-codes.js';

/**
 * Every refusal: an English message (for logs and API users), a stable code (what clients act on) and, when the
 * refusal is about one input, the field it names: body fields by name (`daily`), nested ones by path
 * (`goals[1].daily`, `sets.2026-01-15`), path parameters by their name (`date`). See docs/decisions/0081. An import
 * names the `sets` date a refusal is about (one that is no date, or the date of a bad amount) as `key` beside the
 * field, not in its path, which keeps the paths clients know (decision 0179). A body too large says how large the
 * route's body may be as `max_bytes`, so a client can say what is allowed (decision 0187).
 */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'human-readable English message; its wording is not part of the contract' }),
    code: Type.Enum(ERROR_CODES, { description: 'stable code; clients translate and decide by it' }),
    field: Type.Optional(
      Type.String({ description: 'the input the refusal is about, e.g. `daily` or `goals[1].daily`' }),
    ),
    max_bytes: Type.Optional(
      Type.Integer({
        description:
          'on 413 `body_too_large`: the most bytes of request body the route takes (16 KiB, the goal routes 1 MiB, ' +
          'the import 20 MiB)',
      }),
    ),
    key: Type.Optional(
      Type.String({
        description:
          'the key of the object at `field` the refusal is about (in an import, the `sets` key that is no ' +
          'calendar date, or the date whose amounts are refused): its first 100 characters, then … when longer',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBody>;
