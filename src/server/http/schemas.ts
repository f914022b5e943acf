import { Type } from 'typebox';

/**
 * A string field of a request body. Its hard cap only bounds the work a request can cause; each field's real
 * rule (non-empty, a length limit with a clear message) is checked where the field is used.
 */
export const Text = (maxLength = 4096) => Type.String({ maxLength });

export const Ok = Type.Object({ ok: Type.Literal(true) });
