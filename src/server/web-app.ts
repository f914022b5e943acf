import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from './deps.js';
import { CompressibleBody, encodingFor, sendCompressible } from './http/compression.js';

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Steady</title></head>
<body><main><h1>Steady runs</h1><p>The web app is not built yet: run <code>npm run build</code>.</p></main></body></html>`;

/** What the web build contains; anything else is sent as bytes. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const COMPRESSIBLE_TYPES = /^(text\/|application\/(json|manifest\+json)|image\/svg\+xml)/;

/** Hashed asset names never change content; the page, the service worker and the manifest must always be fresh. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

interface WebFile {
  /** The URL path it answers, e.g. `/assets/index-abc.js`. */
  urlPath: string;
  filePath: string;
  contentType: string;
  cacheControl: string;
  /** Text is sent compressed to clients that ask (decision 0119); images and fonts are compressed already. */
  compressible: boolean;
}

interface LoadedFile {
  file: CompressibleBody;
  etag: string;
}

/**
 * Serves the single-page app: `/` (with any query string, e.g. an invite or reset link) answers `index.html`, and
 * each file of the build answers at its own path, with an ETag so a phone revalidates with a 304. The files are
 * listed once at start and read on first request (the build is about 200 kB); a path that is not a file of the
 * build is not routed, so no request can name a file outside it. A plain list replaced @fastify/static, whose
 * directory walk and dependencies cost a twentieth of the start time (decision 0059).
 */
export const webAppRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    const indexFile = path.join(deps.webRoot, 'index.html');
    if (!fs.existsSync(indexFile)) {
      app.get('/', { config: { auth: 'none' } }, async (_request, reply) =>
        reply.type('text/html; charset=utf-8').header('cache-control', REVALIDATE).send(PLACEHOLDER),
      );
      return;
    }
    for (const file of listWebFiles(deps.webRoot)) {
      const handler = fileHandler(file);
      // Hashed names change with each build: one `route` label for them all keeps /metrics from growing (0197).
      const metricsRoute = file.cacheControl === IMMUTABLE ? '/assets/*' : file.urlPath;
      app.get(file.urlPath, { config: { auth: 'none', metricsRoute } }, handler);
      if (file.urlPath === '/index.html') app.get('/', { config: { auth: 'none' } }, handler);
    }
  };

/** Every file below `root`, with the URL path and headers it is served with. */
export function listWebFiles(root: string, folder = ''): WebFile[] {
  const files: WebFile[] = [];
  for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      files.push(...listWebFiles(root, relative));
    } else if (entry.isFile()) {
      const contentType = CONTENT_TYPES[path.extname(entry.name).toLowerCase()] ?? 'application/octet-stream';
      files.push({
        urlPath: `/${relative}`,
        filePath: path.join(root, relative),
        contentType,
        cacheControl: relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE,
        compressible: COMPRESSIBLE_TYPES.test(contentType),
      });
    }
  }
  return files;
}

function fileHandler(file: WebFile) {
  let loading: Promise<LoadedFile> | null = null;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // A failed read (the build replaced under a running server) is tried again by the next request.
    loading ??= loadFile(file.filePath).catch((error: unknown) => {
      loading = null;
      throw error;
    });
    const { file: loaded, etag } = await loading;
    const encoding = file.compressible ? encodingFor(request, loaded.body) : null;
    // Each form is a representation of its own, so it has a tag of its own (RFC 9110 8.8.3).
    const formEtag = encoding === null ? etag : `${etag.slice(0, -1)}-${encoding}"`;
    reply.header('cache-control', file.cacheControl).header('etag', formEtag);
    if (file.compressible) reply.header('vary', 'accept-encoding');
    if (matchesEtag(request.headers['if-none-match'], formEtag)) return reply.code(304).send();
    reply.type(file.contentType);
    return file.compressible ? sendCompressible(reply, loaded, encoding) : reply.send(loaded.body);
  };
}

async function loadFile(filePath: string): Promise<LoadedFile> {
  const body = await fsp.readFile(filePath);
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return { file: new CompressibleBody(body), etag: `"${digest}"` };
}

/** `If-None-Match` holds `*` or a list of tags, weak ones (`W/"…"`) included (RFC 9110, weak comparison). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || candidate === etag || candidate === `W/${etag}`;
  });
}
