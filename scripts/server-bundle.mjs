// How the server is bundled with esbuild, shared by `npm run build:server` (scripts/build-server.mjs) and the bench
// (bench/run.ts), so the bench measures the memory and start of the code `npm start` runs (decision 0119: a bench
// server bundled differently carried about 12 MB more).

/** Native addons (and pg's optional native binding) load from node_modules at run time. */
const EXTERNAL = ['better-sqlite3', '@node-rs/argon2', 'pg-native'];

/** Packages written as CommonJS call `require`, which an ES module bundle must be given. */
const REQUIRE_SHIM =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** esbuild's options for a server bundle of the package at `root`; the caller adds its entry points and outdir. */
export function serverBundleOptions(root) {
  return {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: EXTERNAL,
    // @fastify/swagger's YAML output is never asked for; its 160 kB would be parsed at every start (decision 0059).
    alias: { yaml: './scripts/yaml-left-out.cjs' },
    banner: { js: REQUIRE_SHIM },
    // Modules imported with `import()` (pg, nodemailer) become chunks of their own (in `chunks/` of the outdir),
    // loaded only when used. Whitespace and syntax are minified, names are kept for stack traces: the file
    // is a third smaller and pure ASCII (some packages' comments are not), which Node decodes and V8 parses faster
    // (decision 0059).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    sourcemap: true,
    logLevel: 'warning',
  };
}
