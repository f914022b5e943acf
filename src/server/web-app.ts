import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from './deps.js';

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Steady</title></head>
<body><main><h1>Steady runs</h1><p>The web app is not built yet: run <code>npm run build</code>.</p></main></body></html>`;

/**
 * Serves the single-page app: `/` (with any query string, e.g. an invite or reset link) answers `index.html`,
 * the built assets are served as files. Routing inside the app uses the URL hash, so no other path is needed.
 */
export const webAppRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    const indexFile = path.join(deps.webRoot, 'index.html');
    if (!fs.existsSync(indexFile)) {
      app.get('/', { config: { auth: 'none' } }, async (_request, reply) =>
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(PLACEHOLDER),
      );
      return;
    }
    await app.register(fastifyStatic, {
      root: deps.webRoot,
      index: false,
      wildcard: false,
      // Hashed asset names never change content; the page and the service worker must always be fresh.
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/', { config: { auth: 'none' } }, async (_request, reply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html'),
    );
  };
