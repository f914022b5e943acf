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

/** Why a server answers 503: the database cannot serve now, or the process is stopping (decision 0196). */
const UNAVAILABLE_CAUSES = {
  database_unavailable: 'the database is unreachable, or busy beyond its deadlines',
  shutting_down: 'the server is stopping (a restart or deploy); the next process answers in a moment',
} as const;

/**
 * The 503 answer of a route, shared by all of them (decision 0196): the error body with the codes it can carry (every
 * route `shutting_down`, a route that uses the database `database_unavailable` too), and the Retry-After header,
 * which @fastify/swagger documents from `headers`.
 */
export function unavailableAnswer(usesDatabase: boolean) {
  const codes: ('database_unavailable' | 'shutting_down')[] = usesDatabase
    ? ['database_unavailable', 'shutting_down']
    : ['shutting_down'];
  const causes = codes.map((code) => `\`${code}\`: ${UNAVAILABLE_CAUSES[code]}`).join('; ');
  return Type.Object(
    {
      error: ErrorBody.properties.error,
      code: Type.Enum(codes, { description: causes }),
    },
    {
      additionalProperties: false,
      description: 'Unavailable for a moment (the code says why); Retry-After says when to try again',
      headers: {
        'Retry-After': Type.Integer({ description: 'seconds to wait before trying again (5)', minimum: 1 }),
      },
    },
  );
}
