import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEB = path.join(ROOT, 'dist/web');
const LIMIT_BYTES = 40 * 1024;

function builtIndex(): string {
  const index = path.join(WEB, 'index.html');
  if (!existsSync(index)) {
    const build = spawnSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
    assert.equal(build.status, 0, 'npm run build:web failed');
  }
  return readFileSync(index, 'utf8');
}

test('the JavaScript index.html loads at start is at most 40 kB gzipped', () => {
  const html = builtIndex();
  const scripts = [
    ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g),
    ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((match) => match[1]!);
  assert.ok(scripts.length > 0, 'index.html loads a script');
  let total = 0;
  for (const src of scripts) {
    assert.match(src, /^\/assets\//, `${src} is one of our own built files`);
    total += gzipSync(readFileSync(path.join(WEB, src))).length;
  }
  assert.ok(total <= LIMIT_BYTES, `initial JavaScript is ${(total / 1024).toFixed(1)} kB gzipped, more than 40 kB`);
});

test('index.html has nothing the Content-Security-Policy would refuse: no inline script or style', () => {
  const html = builtIndex();
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\bsrc="\//, `inline script: ${tag}`);
  assert.doesNotMatch(html, /<style\b/, 'an inline <style> element');
  assert.doesNotMatch(html, /\sstyle="/, 'a style attribute');
  assert.doesNotMatch(html, /\son[a-z]+="/, 'an inline event handler');
  assert.match(html, /<link rel="manifest" href="\/manifest.webmanifest">/);
  for (const file of ['manifest.webmanifest', 'sw.js', 'icon.svg', 'icon-192.png', 'icon-512.png']) {
    assert.ok(existsSync(path.join(WEB, file)), `dist/web/${file} exists`);
  }
});
