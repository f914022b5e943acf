import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode, fieldPath } from '../../common/contract/error-codes.js';
import { isDatabaseUnavailable } from '../db/dialect.js';
import { databaseUnavailable, type ErrorBody, HttpError } from './errors.js';
import { apiHeaders } from './security-headers.js';

/** How one of Fastify's own client errors is answered; status and message default to Fastify's. */
interface ClientErrorAnswer {
  status?: number;
  code: ErrorCode;
  message?: string;
}

const INVALID_JSON: ClientErrorAnswer = { code: 'invalid_json', message: 'Request body is not valid JSON' };

/** Fastify's own client errors (body parsing, size, media type) mapped to our stable codes. */
const FASTIFY_ERRORS: Record<string, ClientErrorAnswer> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Request body must be application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_body' },
  FST_ERR_CTP_INVALID_JSON_BODY: INVALID_JSON,
};

/**
 * One place turns every thrown error into `{ error, code }`: never a stack trace, never HTML, and never a 500 for
 * something the client sent.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isDatabaseUnavailable(error)) {
      // Expected while PostgreSQL restarts or the disk is full: a warning, and the client may retry shortly.
      request.log.warn({ err: error }, 'database unavailable');
      const unavailable = databaseUnavailable();
      return reply
        .code(unavailable.statusCode)
        .headers(unavailable.headers)
        .send(body(unavailable.message, unavailable.code));
    }
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send(body(error.message, error.code, error.field, error.key));
    }
    if (error.validation) {
      const field = validationField(error);
      return reply.code(400).send(body(describeValidationError(error, field), 'invalid_input', field));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send(tooLarge(request));
    const known = FASTIFY_ERRORS[error.code] ?? (error instanceof SyntaxError ? INVALID_JSON : undefined);
    const status = known?.status ?? error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(body(known?.message ?? error.message, known?.code ?? 'bad_request'));
    }
    request.log.error({ err: error }, 'unexpected failure');
    return reply.code(500).send(body('Internal server error', 'internal'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(body(`No route for ${request.method} ${request.url.split('?')[0]}`, 'not_found'));
  });
}

/**
 * The answer to errors Fastify raises before routing (a malformed percent-encoding in the path, an over-long
 * parameter). No hook has run yet, so the API headers are set here.
 */
export function frameworkErrorAnswer(secure: boolean) {
  const headers = apiHeaders(secure);
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    reply.code(status).headers(headers).send(body('The request URL is not valid', 'bad_request'));
  };
}

/**
 * A body above the route's limit (16 KiB, the goal routes 1 MiB, the import 20 MiB: http/body-limits.ts) names that
 * limit, the route's own as Fastify applied it, so a client can say what is allowed (decision 0187).
 */
function tooLarge(request: FastifyRequest): ErrorBody {
  const limit = request.routeOptions.bodyLimit;
  return {
    error: `Request body is larger than the ${limit} bytes this route takes`,
    code: 'body_too_large',
    max_bytes: limit,
  };
}

function body(error: string, code: ErrorCode, field?: string, key?: string): ErrorBody {
  const answer: ErrorBody = field === undefined ? { error, code } : { error, code, field };
  if (key !== undefined) answer.key = key;
  return answer;
}

/**
 * The input an Ajv refusal is about, as a path: `name`, `goals[1].daily` (decision 0081). Undefined when it is
 * about the whole body (e.g. not an object).
 */
function validationField(error: FastifyError): string | undefined {
  const first = error.validation?.[0];
  if (!first) return undefined;
  const params = first.params as Record<string, unknown>;
  const segments = first.instancePath.split('/').slice(1).map(unescapePointer);
  if (first.keyword === 'required') segments.push(String(params.missingProperty));
  if (first.keyword === 'additionalProperties') segments.push(String(params.additionalProperty));
  return segments.length === 0 ? undefined : fieldPath(segments);
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** "name must NOT have more than 200 characters" instead of Ajv's "body/name must NOT ...". */
function describeValidationError(error: FastifyError, field: string | undefined): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const params = first.params as Record<string, unknown>;
  if (first.keyword === 'required') return `${String(params.missingProperty)} is required`;
  if (first.keyword === 'additionalProperties') return `unknown field ${String(params.additionalProperty)}`;
  const subject = field ?? (error.validationContext === 'body' ? 'body' : (error.validationContext ?? 'input'));
  return `${subject} ${first.message ?? 'is invalid'}`;
}
