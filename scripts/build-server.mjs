#!/usr/bin/env node
// Builds the server and the CLI with esbuild: an entry each (dist/server/main.js, dist/cli/main.js) and the code they
// share or load later as chunks (dist/chunks). Bundled code loads in about half the time of hundreds of separate modules (fastify, kysely, typebox), which is
// most of the server's start time (issue 7, decision 0058). Types are checked by `npm run typecheck` (tsc), not here.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Native addons (and pg's optional native binding) load from node_modules at run time. */
const EXTERNAL = ['better-sqlite3', '@node-rs/argon2', 'pg-native'];

/** Packages written as CommonJS call `require`, which an ES module bundle must be given. */
const REQUIRE_SHIM =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

// `common` is left by the tsc builds before this script.
for (const folder of ['server', 'cli', 'common', 'chunks'])
  rmSync(path.join(root, 'dist', folder), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  // Each entry stays two folders below the package root, as src/server/paths.ts expects.
  entryPoints: { 'server/main': 'src/server/main.ts', 'cli/main': 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  external: EXTERNAL,
  // @fastify/swagger's YAML output is never asked for; its 160 kB would be parsed at every start (decision 0059).
  alias: { yaml: './scripts/yaml-left-out.cjs' },
  banner: { js: REQUIRE_SHIM },
  // Modules imported with `import()` (pg, nodemailer) become chunks of their own (dist/chunks, also two folders
  // below the root), loaded only when used. Whitespace and syntax are minified, names are kept for stack traces:
  // the file is a third smaller and pure ASCII (some packages' comments are not), which Node decodes and V8 parses
  // faster (decision 0059).
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  sourcemap: true,
  logLevel: 'warning',
});
