import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorBody, HttpError } from './errors.js';

/** Fastify's own client errors (body parsing, size, media type) mapped to our stable codes. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
};

/**
 * One place turns every thrown error into `{ error, code }`: never a stack trace, never HTML, and never a 500 for
 * something the client sent.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(body(error.message, error.code));
    }
    if (error.validation) {
      return reply.code(400).send(body(describeValidationError(error), 'invalid_input'));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send(body('Request body must be application/json', 'unsupported_media_type'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = FASTIFY_CODES[error.code] ?? (error instanceof SyntaxError ? 'invalid_json' : 'bad_request');
      const message = code === 'invalid_json' ? 'Request body is not valid JSON' : error.message;
      return reply.code(status).send(body(message, code));
    }
    request.log.error({ err: error }, 'unexpected failure');
    return reply.code(500).send(body('Internal server error', 'internal'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(body(`No route for ${request.method} ${request.url.split('?')[0]}`, 'not_found'));
  });
}

/** Errors Fastify raises before routing (a malformed percent-encoding in the path, an over-long parameter). */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  reply
    .code(status)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(body('The request URL is not valid', 'bad_request'));
}

function body(error: string, code: string): ErrorBody {
  return { error, code };
}

/** "name must NOT have more than 200 characters" instead of Ajv's "body/name must NOT ...". */
function describeValidationError(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const params = first.params as Record<string, unknown>;
  const path = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'required') return `${String(params.missingProperty)} is required`;
  if (first.keyword === 'additionalProperties') return `unknown field ${String(params.additionalProperty)}`;
  const field = path || (error.validationContext === 'body' ? 'body' : error.validationContext ?? 'input');
  return `${field} ${first.message ?? 'is invalid'}`;
}
