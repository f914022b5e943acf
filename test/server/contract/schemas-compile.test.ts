import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { ROUTES } from '../../../src/common/contract/routes.js';
import { AJV_OPTIONS } from '../../../src/server/http/lazy-schema-compilers.js';

// The server compiles a route's schemas on the route's first use (decision 0059), so a schema Fastify's compilers
// cannot handle would only show on that request. Compiling them all here, eagerly, keeps that from reaching a user.
test('every request and response schema of the contract compiles with the compilers the server uses', () => {
  const validators = AjvCompiler()({}, { customOptions: AJV_OPTIONS });
  const serializers = SerializerSelector()({}, {});
  let compiled = 0;
  for (const [name, route] of Object.entries(ROUTES)) {
    const schema = route.schema as {
      body?: object;
      params?: object;
      response: Record<string, { content?: Record<string, { schema: object }> }>;
    };
    for (const httpPart of ['body', 'params'] as const) {
      const part = schema[httpPart];
      if (part === undefined) continue;
      const validate = validators({ schema: part, method: route.method, url: route.url, httpPart });
      assert.equal(typeof validate, 'function', `${name} ${httpPart}`);
      compiled++;
    }
    for (const [status, answer] of Object.entries(schema.response)) {
      const bodies = answer.content ? Object.values(answer.content).map((entry) => entry.schema) : [answer];
      for (const body of bodies) {
        const serialize = serializers({ schema: body, method: route.method, url: route.url, httpStatus: status });
        assert.equal(typeof serialize, 'function', `${name} ${status}`);
        compiled++;
      }
    }
  }
  assert.ok(compiled > Object.keys(ROUTES).length * 3, `compiled ${compiled} schemas`);
});
