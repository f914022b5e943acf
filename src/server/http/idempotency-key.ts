import { createHash } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import type { FastifyRequest, RequestPayload } from 'fastify';
import { badRequest, HttpError } from './errors.js';
import type { RequestKey } from './request-keys-store.js';

/**
 * A client's `Idempotency-Key` header (IETF draft-ietf-httpapi-idempotency-key-header): the same key sent again
 * names the same request, so a retry after a lost answer is not carried out twice. A plain token, as an `entry_id`
 * is; a UUID fits.
 */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,100}$/;
export const IDEMPOTENCY_KEY_FIELD = 'Idempotency-Key';

/** The request's `Idempotency-Key`, or undefined when it sent none; 400 `invalid_idempotency_key` when malformed. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw badRequest(
      'invalid_idempotency_key',
      'Idempotency-Key must be 1 to 100 letters, digits or . _ : -',
      IDEMPOTENCY_KEY_FIELD,
    );
  }
  return key;
}

/**
 * The body stream as it arrives, passed on unchanged, with `onDigest` given its SHA-256 (hex) once it has all been
 * read: a repeated key can be checked against the body it first came with, without holding a copy of the body.
 */
export function hashedBody(payload: RequestPayload, onDigest: (hex: string) => void): RequestPayload {
  const hash = createHash('sha256');
  const hashed = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      onDigest(hash.digest('hex'));
      done();
    },
  });
  // Fastify reads the body from what preParsing returns; an aborted upload must end both streams.
  pipeline(payload, hashed, () => undefined);
  return hashed;
}

/**
 * The keys of a route's keyed requests, each with its body's SHA-256, taken in the route's preParsing step as the
 * body is read and looked up by the handler.
 */
export class KeyedBodies {
  readonly #keys = new WeakMap<FastifyRequest, RequestKey>();

  /** The body to parse: `payload` hashed on its way when the request has a `key` (from `idempotencyKeyOf`). */
  read(request: FastifyRequest, key: string | undefined, payload: RequestPayload): RequestPayload {
    if (key === undefined) return payload;
    return hashedBody(payload, (bodyHash) => this.#keys.set(request, { key, bodyHash }));
  }

  /** The request's key and body hash, once its body has been read; undefined when it sent no key. */
  of(request: FastifyRequest): RequestKey | undefined {
    return this.#keys.get(request);
  }
}

/** 422 `idempotency_key_reused`: the key came earlier with another body, and nothing was done. */
export const keyReused = () =>
  new HttpError(422, 'idempotency_key_reused', 'This Idempotency-Key came earlier with another request body', {
    field: IDEMPOTENCY_KEY_FIELD,
  });
