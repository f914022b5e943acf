import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: a plain .mjs script without types (it runs before anything is built)
import { staleReason } from '../../../scripts/build-if-stale.mjs';

async function write(root: string, file: string, mtimeSeconds: number): Promise<void> {
  const full = path.join(root, file);
  await fs.mkdir(path.dirname(full), { recursive: true });
  await fs.writeFile(full, 'x');
  await fs.utimes(full, mtimeSeconds, mtimeSeconds);
  // A folder's own time changes when files come and go; keep it old so only the files decide.
  await fs.utimes(path.dirname(full), 1_000, 1_000);
}

test("npm start's prestart builds only when the build is missing or older than a source", async (t) => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'steady-build-'));
  t.after(() => fs.rm(root, { recursive: true, force: true }));
  await write(root, 'src/server/main.ts', 2_000);
  await write(root, 'src/web/pages/goals.tsx', 2_000);
  await write(root, 'package.json', 2_000);
  await fs.utimes(path.join(root, 'src'), 1_000, 1_000);
  await fs.utimes(path.join(root, 'src/web'), 1_000, 1_000);
  assert.equal(staleReason(root), 'dist/server/main.js is missing');

  await write(root, 'dist/server/main.js', 3_000);
  await write(root, 'dist/cli/main.js', 3_000);
  await write(root, 'dist/web/index.html', 3_000);
  assert.equal(staleReason(root), null, 'a current build is not rebuilt');

  await write(root, 'src/web/pages/goals.tsx', 4_000);
  assert.equal(staleReason(root), 'src changed since the last build');
  await write(root, 'src/web/pages/goals.tsx', 2_000);
  await write(root, 'package-lock.json', 4_000);
  assert.equal(staleReason(root), 'package-lock.json changed since the last build');
});
