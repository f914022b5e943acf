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
 * - so is a lone surrogate (`"\ud800"`, valid JSON but no character): UTF-8 cannot hold it, and each engine stored
 *   something else in its place (SQLite the bytes ED A0 80, read back as three U+FFFD; PostgreSQL one U+FFFD), while
 *   the answer echoed the text sent (decision 0213);
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
      if (!error && mayHoldUnstorable(text) && containsUnstorable(value)) {
        // The field names where the text is (`name`, `goals[1].unit`), so the web app can put the reason beside it.
        const found = unstorablePath(value);
        const field = found && found.path.length > 0 ? fieldPath(found.path) : undefined;
        const message = found?.text.includes('\u0000')
          ? 'Text must not contain NUL characters (U+0000)'
          : 'Text must not contain a lone surrogate (U+D800 to U+DFFF without its pair)';
        return done(badRequest('invalid_input', message, field), undefined);
      }
      done(error, value);
    });
  });
}

/**
 * False when the parsed text cannot hold U+0000 or a lone surrogate, so most bodies skip the walk (a PATCH of 270
 * amounts paid 14 µs for it under load): JSON has no raw U+0000 in a string, and valid UTF-8 no lone surrogate, so
 * both can only come from a `\u` escape.
 */
function mayHoldUnstorable(text: string): boolean {
  return text.includes('\\u');
}

/** U+0000, or a surrogate without its pair: text neither engine stores as it was sent. */
function unstorable(text: string): boolean {
  // With the `u` flag a well-formed pair reads as one code point, so \p{Cs} matches only a lone half.
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * True when any string or object key anywhere in a parsed JSON value holds U+0000 or a lone surrogate. Walks with
 * its own stack, not recursion: a body of deeply nested arrays must not overflow the call stack.
 */
function containsUnstorable(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (unstorable(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item); // not push(...value): a huge array would overflow the arguments
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (unstorable(key)) return true;
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
 * Where the first U+0000 or lone surrogate in a string or object key of a parsed JSON value is, as a path of keys
 * and indexes (empty for the root; such a key names its object), with the text holding it, or undefined when there
 * is none. Only run once `containsUnstorable` found one, so bodies without NUL (a 20 MB import) pay for no parent links. Same walk as
 * `containsUnstorable`, with its own stack; paths are only built for the hit.
 */
function unstorablePath(root: unknown): { path: (string | number)[]; text: string } | undefined {
  const pending: Pending[] = [{ value: root }];
  while (pending.length > 0) {
    const entry = pending.pop()!;
    const { value } = entry;
    if (typeof value === 'string') {
      if (unstorable(value)) return { path: pathOf(entry), text: value };
    } else if (Array.isArray(value)) {
      // One at a time, not push(...): a huge array would overflow the arguments.
      value.forEach((item, index) => pending.push({ value: item, parent: entry, key: index }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (unstorable(key)) return { path: pathOf(entry), text: key };
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
