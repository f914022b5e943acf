#!/usr/bin/env node
// Builds the server and the CLI with esbuild: an entry each (dist/server/main.js, dist/cli/main.js) and the code they
// share or load later as chunks (dist/chunks). Bundled code loads in about half the time of hundreds of separate modules (fastify, kysely, typebox), which is
// most of the server's start time (issue 7, decision 0058). Types are checked by `npm run typecheck` (tsc), not here.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { serverBundleOptions } from './server-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// `common` is left by the tsc builds before this script.
for (const folder of ['server', 'cli', 'common', 'chunks'])
  rmSync(path.join(root, 'dist', folder), { recursive: true, force: true });
await build({
  ...serverBundleOptions(root),
  // Each entry stays two folders below the package root, as src/server/paths.ts expects.
  entryPoints: { 'server/main': 'src/server/main.ts', 'cli/main': 'src/cli/main.ts' },
  outdir: 'dist',
});
