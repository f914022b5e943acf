import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ROUTES } from '../../../src/common/contract/routes.js';
import { GoalList } from '../../../src/common/contract/schemas.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import { documentCheck } from '../../support/contract-check.js';

let steady: TestApp;
before(async () => {
  steady = await createTestApp();
});
after(() => steady.close());

/** `/api/goals/:id` as OpenAPI writes it: `/api/goals/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

interface Operation {
  summary?: string;
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}

test('every /api route Fastify knows is in the contract and documented with an answer for each status', async () => {
  const answer = await steady.client().get('/api/openapi.json');
  assert.equal(answer.status, 200);
  const paths = answer.body.paths as Record<string, Record<string, Operation>>;
  const contract = new Set(Object.values(ROUTES).map((route) => `${route.method} ${route.url}`));
  const known = steady.app.knownApiRoutes.map((route) => `${route.method} ${route.url}`);
  assert.ok(known.length >= Object.keys(ROUTES).length, 'the route list is filled');

  const notInContract = known.filter((route) => !contract.has(route));
  assert.deepEqual(
    notInContract,
    [],
    `Routes without an entry in src/common/contract/routes.ts (add one and register the route with fromContract(); ` +
      `see DEVELOPERS.md, "Adding a route"): ${notInContract.join(', ')}`,
  );
  const notRegistered = [...contract].filter((route) => !known.includes(route));
  assert.deepEqual(notRegistered, [], 'contract entries without a route');

  for (const route of known) {
    const [method, url] = route.split(' ') as [string, string];
    const operation = paths[openApiPath(url)]?.[method.toLowerCase()];
    assert.ok(operation, `${route} is missing from /api/openapi.json`);
    assert.ok(operation.summary, `${route} has a summary`);
    const statuses = Object.keys(operation.responses);
    assert.ok(
      statuses.includes('200') && statuses.includes('500'),
      `${route} documents 200 and 500: ${statuses.join(', ')}`,
    );
    for (const [status, response] of Object.entries(operation.responses)) {
      assert.ok(response.content && Object.keys(response.content).length === 1, `${route} ${status} has a schema`);
    }
  }
});

test('the document is OpenAPI 3.1 with request bodies and parameters from the contract', async () => {
  const document = (await steady.client().get('/api/openapi.json')).body;
  assert.equal(document.openapi, '3.1.0');
  const createGoal = document.paths['/api/goals'].post as Operation;
  const body = createGoal.requestBody!.content['application/json']!.schema as { properties: Record<string, object> };
  assert.deepEqual(
    Object.keys(body.properties).sort(),
    ['daily', 'days', 'name', 'sets', 'start', 'unit'],
    'the documented goal fields',
  );
  const login = document.paths['/api/login'].post as Operation;
  assert.deepEqual(Object.keys(login.responses).sort(), [
    '200',
    '400',
    '401',
    '403',
    '413',
    '415',
    '429',
    '500',
    '503',
  ]);
  const me = document.paths['/api/me'].get as Operation;
  assert.deepEqual(me.responses['401']!.content!['application/json']!.schema, {
    type: 'object',
    required: ['ok'],
    properties: { ok: { type: 'boolean', enum: [false] } },
    additionalProperties: false,
  });
  const log = document.paths['/api/goals/{id}/sets/{date}'].post;
  assert.deepEqual(
    log.parameters.map((parameter: { name: string; in: string }) => `${parameter.in}:${parameter.name}`),
    ['path:id', 'path:date'],
  );
});

test('GET /api/docs is a self-contained HTML page naming every operation, within the Content-Security-Policy', async () => {
  const answer = await steady.client().get('/api/docs');
  assert.equal(answer.status, 200);
  assert.match(String(answer.headers['content-type']), /^text\/html/);
  assert.match(String(answer.headers['content-security-policy']), /script-src 'self'/);
  for (const route of Object.values(ROUTES)) {
    assert.ok(
      answer.text.includes(`${route.method} ${openApiPath(route.url)}`),
      `${route.method} ${route.url} is on the page`,
    );
  }
  // The policy allows no inline script or style and no other host: the page uses none.
  assert.doesNotMatch(answer.text, /<script|<style|\sstyle=|\son\w+=|<link|https?:\/\//i);
});

test('the spliced bytes of GET /api/goals and POST /api/goals match the Goal schema', async () => {
  const anna = await steady.register('anna@example.com');
  const created = await anna.post('/api/goals', {
    name: 'Quote " backslash \\ tab \t emoji 🏃 </script>',
    unit: 'ü\u2028',
    daily: 0.25,
    days: 3650,
    start: '2026-03-01',
    sets: { '2026-03-02': [-1e9, 1e9, 0.1], '2026-03-01': [] },
  });
  assert.equal(created.status, 200);
  await anna.post('/api/goals', { name: 'Second' });
  const list = await anna.get('/api/goals');
  const validate = new Ajv2020({ strict: false }).compile(GoalList);
  assert.ok(validate(JSON.parse(list.text)), JSON.stringify(validate.errors));
  assert.equal(JSON.parse(list.text).length, 2);
  assert.ok(validate([JSON.parse(created.text)]), JSON.stringify(validate.errors));
});

test('the document check refuses an undocumented status, a wrong shape and a non-error answer to an unknown route', () => {
  const check = documentCheck(steady.app);
  const answer = { method: 'GET', url: '/api/goals', contentType: 'application/json; charset=utf-8' };
  assert.doesNotThrow(() => check.check({ ...answer, status: 200, text: '[]' }));
  assert.throws(() => check.check({ ...answer, status: 418, text: '{}' }), /status the OpenAPI document does not list/);
  assert.throws(() => check.check({ ...answer, status: 200, text: '[{"id":7}]' }), /does not match/);
  assert.throws(
    () => check.check({ ...answer, status: 401, text: '{"error":"x","code":"no_such_code"}' }),
    /does not match/,
  );
  assert.throws(() => check.check({ ...answer, status: 200, text: '[]', contentType: 'text/plain' }), /content type/);
  assert.throws(() => check.check({ ...answer, url: '/api/nothing', status: 404, text: '{"ok":true}' }), /error body/);
  assert.doesNotThrow(() =>
    check.check({ ...answer, url: '/api/nothing', status: 404, text: '{"error":"x","code":"not_found"}' }),
  );
  // A stopping server answers the document itself 503 shutting_down (decision 0196); it never uses the database.
  const docs = { ...answer, url: '/api/openapi.json', status: 503 };
  assert.doesNotThrow(() => check.check({ ...docs, text: '{"error":"x","code":"shutting_down"}' }));
  assert.throws(() => check.check({ ...docs, text: '{"error":"x","code":"database_unavailable"}' }), /does not match/);
  assert.throws(
    () => check.check({ ...answer, status: 503, text: '{"error":"x","code":"internal"}' }),
    /does not match/,
  );
});

test('503 is documented on every route with Retry-After: shutting_down everywhere, database_unavailable where the database is used; the operator endpoints stay out', async () => {
  const document = (await steady.client().get('/api/openapi.json')).body;
  const paths = document.paths as Record<string, Record<string, Operation>>;
  for (const route of Object.values(ROUTES)) {
    const where = `${route.method} ${route.url}`;
    const unavailable = paths[openApiPath(route.url)]![route.method.toLowerCase()]!.responses['503'] as
      | { headers?: Record<string, unknown>; content?: Record<string, { schema: { properties: { code: object } } }> }
      | undefined;
    assert.ok(unavailable, `${where} documents 503`);
    const withoutDatabase = ['/api/openapi.json', '/api/docs', '/api/reminders/page.css'].includes(route.url);
    assert.deepEqual(
      (unavailable.content!['application/json']!.schema.properties.code as { enum: string[] }).enum,
      withoutDatabase ? ['shutting_down'] : ['database_unavailable', 'shutting_down'],
      where,
    );
    assert.ok(unavailable.headers?.['Retry-After'], `${where} documents Retry-After`);
  }
  const csv = paths['/api/export.csv']!.get!.responses;
  assert.deepEqual(Object.keys(csv['200']!.content!), ['text/csv']);
  assert.deepEqual(Object.keys(csv['401']!.content!), ['application/json'], 'its refusals are the JSON error body');
  // The reminder link's page when the link is not valid is a page too (decision 0178).
  const offPage = paths['/api/reminders/off/{token}']!.get!.responses;
  assert.deepEqual(Object.keys(offPage['404']!.content!), ['text/html']);
  assert.ok(paths['/api/import']!.post!.requestBody, 'the import documents the export document as its body');
  for (const operatorPath of ['/healthz', '/readyz', '/metrics'])
    assert.equal(paths[operatorPath], undefined, operatorPath);
});
