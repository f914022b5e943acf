import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../../../src/server/paths.js';

test("every environment variable config.ts reads has a row in README.md's configuration table", () => {
  const source = fs.readFileSync(path.join(projectRoot, 'src/server/config.ts'), 'utf8');
  const read = [...new Set([...source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!))].sort();
  assert.ok(read.length >= 12, `found only ${read.join(', ')}`);
  const readme = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  const documented = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!));
  assert.deepEqual(
    read.filter((variable) => !documented.has(variable)),
    [],
  );
});
