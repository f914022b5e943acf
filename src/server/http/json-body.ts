import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { fieldPath } from '../../common/contract/error-codes.js';
import { badRequest } from './errors.js';

/**
 * Fastify's own JSON parser (with prototype-poisoning protection), with two changes:
 * - an empty body labelled `application/json` counts as no body, so a client that always sends the header can
 *   still call bodyless endpoints such as `POST /api/logout`; routes that need a body refuse `undefined` anyway;
 * - a body that is valid JSON but carries `__proto__` or `constructor.prototype` is refused as `invalid_input`
 *   with a message naming those keys, rather than being called "not valid JSON";
 * - a body with U+0000 in any string or key is refused as `invalid_input`: PostgreSQL's text cannot hold it, and
 *   no field has a use for it, so one check here covers every endpoint alike on both engines;
 * - a body that is not UTF-8 (a file saved as Latin-1 and sent as it is) is refused as `invalid_json`: read as a
 *   string, each bad byte would become U+FFFD and be stored in its place ("Pomp\uFFFDki"), decision 0188.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseSafely = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(badRequest('invalid_json', 'Request body is not valid UTF-8'), undefined);
    const text = bytes.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    parseSafely(request, text, (error: Error | null, value?: unknown) => {
      if (error && isPlainJson(text)) {
        return done(
          badRequest('invalid_input', 'Request body must not contain __proto__ or constructor.prototype keys'),
          undefined,
        );
      }
      if (!error && containsNul(value)) {
        // The field names where the NUL is (`name`, `goals[1].unit`), so the web app can put the reason beside it.
        const at = nulPath(value) ?? [];
        const field = at.length > 0 ? fieldPath(at) : undefined;
        return done(badRequest('invalid_input', 'Text must not contain NUL characters (U+0000)', field), undefined);
      }
      done(error, value);
    });
  });
}

/**
 * True when any string or object key anywhere in a parsed JSON value holds U+0000. Walks with its own stack, not
 * recursion: a body of deeply nested arrays must not overflow the call stack.
 */
export function containsNul(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item); // not push(...value): a huge array would overflow the arguments
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

interface Pending {
  value: unknown;
  /** How the value was reached: its parent's entry and its key or index there (none for the root). */
  parent?: Pending;
  key?: string | number;
}

/**
 * Where the first U+0000 in a string or object key of a parsed JSON value is, as a path of keys and indexes
 * (empty for the root; a key holding U+0000 names its object), or undefined when there is none. Only run once
 * `containsNul` found one, so bodies without NUL (a 20 MB import) pay for no parent links. Same walk as
 * `containsNul`, with its own stack; paths are only built for the hit.
 */
export function nulPath(root: unknown): (string | number)[] | undefined {
  const pending: Pending[] = [{ value: root }];
  while (pending.length > 0) {
    const entry = pending.pop()!;
    const { value } = entry;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(entry);
    } else if (Array.isArray(value)) {
      // One at a time, not push(...): a huge array would overflow the arguments.
      value.forEach((item, index) => pending.push({ value: item, parent: entry, key: index }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes('\u0000')) return pathOf(entry);
        pending.push({ value: inner, parent: entry, key });
      }
    }
  }
  return undefined;
}

/** Deeper paths name their ancestor at this depth: a field of 400,000 `[0]` would help nobody. */
const NUL_PATH_DEPTH_MAX = 8;

function pathOf(entry: Pending): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Pending | undefined = entry; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse().slice(0, NUL_PATH_DEPTH_MAX);
}

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
