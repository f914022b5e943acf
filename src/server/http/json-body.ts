import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

/**
 * Fastify's own JSON parser (with prototype-poisoning protection), with two changes:
 * - an empty body labelled `application/json` counts as no body, so a client that always sends the header can
 *   still call bodyless endpoints such as `POST /api/logout`; routes that need a body refuse `undefined` anyway;
 * - a body that is valid JSON but carries `__proto__` or `constructor.prototype` is refused as `invalid_input`
 *   with a message naming those keys, rather than being called "not valid JSON".
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseSafely = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    parseSafely(request, text, (error: Error | null, value?: unknown) => {
      if (error && isPlainJson(text)) {
        return done(badRequest('invalid_input', 'Request body must not contain __proto__ or constructor.prototype keys'), undefined);
      }
      done(error, value);
    });
  });
}

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
