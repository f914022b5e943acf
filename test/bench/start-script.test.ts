/**
 * The bench runs its servers with the Node flags `npm start` passes (decisions 0112, 0116): it reads them from
 * package.json, so a change of the start script must still be readable, or `npm run bench` fails at once.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startScriptNodeFlags } from '../../bench/shared.js';
import { projectRoot } from '../../src/server/paths.js';

test("the bench reads the Node flags of package.json's start script", () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  assert.deepEqual(startScriptNodeFlags(scripts.start), ['--max-semi-space-size=4', '--max-old-space-size=512']);
  assert.deepEqual(startScriptNodeFlags('node dist/server/main.js'), []);
  assert.throws(() => startScriptNodeFlags('tsx src/server/main.ts'), /cannot read the Node flags/);
});
