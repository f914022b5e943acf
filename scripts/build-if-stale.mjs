#!/usr/bin/env node
// `npm start`'s prestart: builds only when the build is missing or older than its sources, so a current checkout
// starts at once (issue 7: npm start used to rebuild everything on every start). `npm run build` always builds.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads: any of these newer than the build's outputs means the build is stale. */
const SOURCES = [
  'src',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'scripts/build-server.mjs',
  'scripts/server-bundle.mjs',
  'scripts/yaml-left-out.cjs',
];
/** Written by every build: the server's entry (tsc) and the page (Vite). */
const OUTPUTS = ['dist/server/main.js', 'dist/cli/main.js', 'dist/web/index.html'];

function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** The reason to build, or null when the build in `root` is current. */
export function staleReason(root) {
  let oldestOutput = Infinity;
  for (const output of OUTPUTS) {
    const file = path.join(root, output);
    if (!fs.existsSync(file)) return `${output} is missing`;
    oldestOutput = Math.min(oldestOutput, fs.statSync(file).mtimeMs);
  }
  for (const source of SOURCES) {
    if (newestMtime(path.join(root, source)) > oldestOutput) return `${source} changed since the last build`;
  }
  return null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const reason = staleReason(root);
  if (reason !== null) {
    console.error(`steady: building (${reason})`);
    const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exit(result.status ?? 1);
  }
}
