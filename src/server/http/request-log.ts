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

/** Query parameters that carry secrets: invite tokens and reset links (spec §2). */
const SECRET_QUERY_PARAMETERS = new Set(['invite', 'reset_selector', 'reset_token']);

/** Paths whose rest is a secret: the one-click link that turns a reminder off (docs/api-reminders.md). */
const SECRET_PATH_PREFIXES = ['/api/reminders/off/'];

/**
 * A request URL as the log may show it: the values of secret query parameters and the secret part of a path become
 * `[redacted]`, so a log shipped elsewhere or read by others holds no usable invite, reset or reminder-off link
 * (docs/decisions/0065-log-hygiene.md).
 */
export function redactedUrl(url: string): string {
  const start = url.indexOf('?');
  const path = redactedPath(start === -1 ? url : url.slice(0, start));
  if (start === -1) return path;
  const parts = url
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const name = part.split('=', 1)[0]!;
      return SECRET_QUERY_PARAMETERS.has(decodedName(name).toLowerCase()) ? `${name}=[redacted]` : part;
    });
  return `${path}?${parts.join('&')}`;
}

/** Compared without case: a mistyped path that does not match a route still carries the secret. */
function redactedPath(path: string): string {
  const prefix = SECRET_PATH_PREFIXES.find((secret) => path.toLowerCase().startsWith(secret));
  return prefix === undefined || path.length === prefix.length ? path : `${path.slice(0, prefix.length)}[redacted]`;
}

/** A parameter name as the web app's URLSearchParams reads it (`%69nvite` and `+` decoded); undecodable stays as is. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Fields of the "incoming request" line, with the URL redacted. */
export const requestSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: redactedUrl(request.url), remoteAddress: request.ip };
  },
};

/** Every answer names its request id, so a user's report can be found in the log. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
