import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { ROUTES } from '../../common/contract/routes.js';
import { fromContract } from './contract.js';
import { renderDocsPage } from './docs-page.js';

/** A route as Fastify knows it; `knownApiRoutes` lists every `/api/` one (a test compares them with the document). */
export interface KnownRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every `/api/` route registered, HEAD routes left out (Fastify adds them for GET). */
    knownApiRoutes: KnownRoute[];
  }
}

/**
 * `GET /api/openapi.json` (OpenAPI 3.1, built by @fastify/swagger from every route's schema, which the contract
 * supplies) and `GET /api/docs` (the same document as a plain HTML page, no scripts or third-party assets, so it
 * passes our Content-Security-Policy). Must be installed before the routes it documents (decision 0082).
 */
export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  const known: KnownRoute[] = [];
  app.decorate('knownApiRoutes', known);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') known.push({ method, url: route.url });
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Steady API',
        version,
        description:
          'Invitation-only daily-goal tracker. Errors are `{ error, code, field? }`; state-changing requests need ' +
          '`Content-Type: application/json` and no foreign `Origin`. Sessions are cookies set by login and register.',
      },
    },
    transform: ({ schema, url, route }) => {
      // Only the API is documented; the web app's files and page are not operations.
      if (!url.startsWith('/api/')) return { schema: { ...schema, hide: true }, url };
      const name = route.config?.contract;
      const documented = name === undefined ? undefined : ROUTES[name].documentedBody;
      return { schema: documented ? { ...schema, body: documented } : schema, url };
    },
  });

  app.get(ROUTES.openApi.url, fromContract('openApi'), async () => app.swagger());
  app.get(ROUTES.docs.url, fromContract('docs'), async (_request, reply) =>
    (reply as FastifyReply)
      .type('text/html; charset=utf-8')
      .send(renderDocsPage(app.swagger() as OpenAPIV3_1.Document)),
  );
}
