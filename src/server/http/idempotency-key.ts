import { createHash } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import type { FastifyRequest, RequestPayload } from 'fastify';
import { badRequest } from './errors.js';

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
