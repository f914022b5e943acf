import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

test('the start is one chunk: the entry, with nothing it must load beside it', () => {
  // A second chunk at the start means Rolldown left a shared group out of the entry (decision 0175): the start then
  // loads the same code in two files, more bytes than one.
  const html = builtIndex();
  assert.equal([...html.matchAll(/<script\b[^>]*\bsrc="/g)].length, 1, 'one script');
  assert.doesNotMatch(html, /rel="modulepreload"/, 'a chunk preloaded beside the entry');
});

test('every other script is named for prefetch, so the service worker keeps it for a start without network', () => {
  // The service worker keeps what index.html names and drops other /assets/ files (decision 0145); a chunk that only
  // lazy chunks share (decision 0175) is needed offline too.
  const html = builtIndex();
  const named = new Set([...html.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((match) => match[1]!));
  const scripts = readdirSync(path.join(WEB, 'assets')).filter((file) => file.endsWith('.js'));
  assert.ok(scripts.length > 1, 'the build has chunks loaded later');
  for (const file of scripts) assert.ok(named.has(file), `${file} is not named in index.html`);
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
