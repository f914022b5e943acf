import type { FastifyInstance } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ErrorBody } from '../../src/common/contract/errors.js';

/**
 * Checks answers against the app's own `GET /api/openapi.json` (decision 0083): the status must be documented for
 * the operation, and a JSON body must match that status's schema. An `/api/` request that names no operation
 * must be answered with the error body. Any mismatch throws, so every HTTP test doubles as a contract test.
 */
export interface AnswerToCheck {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  text: string;
}

interface Operation {
  method: string;
  path: string;
  pattern: RegExp;
  answers: Map<string, { contentType: string; validate: ValidateFunction | null } | null>;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const checkers = new WeakMap<FastifyInstance, DocumentCheck>();

export function documentCheck(app: FastifyInstance): DocumentCheck {
  let checker = checkers.get(app);
  if (!checker) {
    checker = new DocumentCheck(app.swagger() as unknown as OpenApiDocument);
    checkers.set(app, checker);
  }
  return checker;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
}

export class DocumentCheck {
  private readonly operations: Operation[] = [];
  private readonly errorBody: ValidateFunction;

  constructor(readonly document: OpenApiDocument) {
    // The export document's times are `date-time` (ISO 8601 as toISOString writes them, or with an offset).
    const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { 'date-time': ISO_DATE_TIME } });
    this.errorBody = ajv.compile(ErrorBody);
    for (const [path, item] of Object.entries(document.paths)) {
      const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, operation] of Object.entries(item)) {
        const answers = new Map<string, { contentType: string; validate: ValidateFunction | null } | null>();
        for (const [status, response] of Object.entries(operation.responses)) {
          const [contentType, media] = Object.entries(response.content ?? {})[0] ?? [];
          answers.set(
            status,
            contentType
              ? { contentType, validate: contentType === 'application/json' ? ajv.compile(media!.schema) : null }
              : null,
          );
        }
        this.operations.push({ method: method.toUpperCase(), path, pattern, answers });
      }
    }
  }

  /** The documented operation of a request, if any (path parameters match any segment). */
  operationOf(method: string, url: string): Operation | undefined {
    const path = url.split('?')[0]!;
    return this.operations.find((operation) => operation.method === method && operation.pattern.test(path));
  }

  check(answer: AnswerToCheck): void {
    const path = answer.url.split('?')[0]!;
    if (!path.startsWith('/api/') || answer.method === 'HEAD' || answer.method === 'OPTIONS') return;
    const where = `${answer.method} ${path} answered ${answer.status}`;
    const operation = this.operationOf(answer.method, path);
    if (!operation) {
      this.expectJson(where, answer, this.errorBody, 'an error body, as the request names no documented operation');
      return;
    }
    if (!operation.answers.has(String(answer.status))) {
      throw new Error(
        `${where}, a status the OpenAPI document does not list for ${operation.method} ${operation.path} ` +
          `(documented: ${[...operation.answers.keys()].join(', ')}). Add it to the route's entry in src/common/contract/routes.ts.`,
      );
    }
    const documented = operation.answers.get(String(answer.status));
    if (!documented) return;
    if (!answer.contentType?.startsWith(documented.contentType)) {
      throw new Error(`${where} with content type ${answer.contentType}; the document says ${documented.contentType}`);
    }
    if (documented.validate)
      this.expectJson(
        where,
        answer,
        documented.validate,
        `the schema of ${operation.method} ${operation.path} ${answer.status}`,
      );
  }

  private expectJson(where: string, answer: AnswerToCheck, validate: ValidateFunction, what: string): void {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      throw new Error(`${where} with a body that is not JSON (expected ${what}): ${answer.text.slice(0, 200)}`);
    }
    if (!validate(body)) {
      throw new Error(
        `${where} with a body that does not match ${what}: ${JSON.stringify(validate.errors)}\nbody: ${answer.text.slice(0, 500)}`,
      );
    }
  }
}
