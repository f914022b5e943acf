import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * How requests appear in the log, in one place: their id and the fields logged for them. Headers and bodies are
 * never logged (cookies, passwords, tokens).
 */

/** A proxy's request id is kept when it is a plain token; anything else could forge log content. */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The id of a request: the `x-request-id` a proxy sent, else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/** Fastify's options for requests; Fastify puts the id as `reqId` on every log line of a request. */
export const requestLogOptions = {
  genReqId: requestId,
};

/** Fields of the "incoming request" line. */
export const requestSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: request.url, remoteAddress: request.ip };
  },
};

/** Every answer names its request id, so a user's report can be found in the log. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}
