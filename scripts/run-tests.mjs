#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner (Node 20 has no glob in `--test`).
// `--no-e2e` leaves out test/e2e (the browser tests), for a quick loop while developing.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const withE2e = !process.argv.includes('--no-e2e');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'e2e' && !withE2e ? [] : findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = (only.length > 0 ? only : findTests('test')).sort();
if (files.length === 0) {
  console.error('run-tests: no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
