import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../support/app.js';

/** A small stand-in for `dist/web`: the page, the service worker, a hashed asset and an icon. */
async function writeWebBuild(root: string): Promise<void> {
  await fsp.mkdir(path.join(root, 'assets'), { recursive: true });
  await fsp.writeFile(path.join(root, 'index.html'), '<!doctype html><title>Steady</title>');
  await fsp.writeFile(path.join(root, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await fsp.writeFile(path.join(root, 'manifest.webmanifest'), '{"name":"Steady"}');
  await fsp.writeFile(path.join(root, 'assets', 'index-AbC123.js'), 'console.log("app");');
  await fsp.writeFile(path.join(root, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
}

describe('the web app files', () => {
  let steady: TestApp;
  let webRoot: string;
  before(async () => {
    webRoot = await fsp.mkdtemp(path.join(os.tmpdir(), 'steady-web-'));
    await writeWebBuild(webRoot);
    steady = await createTestApp({}, { webRoot });
  });
  after(async () => {
    await steady.close();
    await fsp.rm(webRoot, { recursive: true, force: true });
  });

  it('answers / with the page, with any query string, always revalidated', async () => {
    for (const url of ['/', '/?invite=abc', '/index.html']) {
      const answer = await steady.app.inject({ method: 'GET', url });
      assert.equal(answer.statusCode, 200, url);
      assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8', url);
      assert.equal(answer.headers['cache-control'], 'no-cache', url);
      assert.equal(answer.body, '<!doctype html><title>Steady</title>', url);
      assert.match(String(answer.headers['content-security-policy']), /default-src 'self'/, url);
    }
  });

  it('serves each file with its type; hashed assets are cached for good, the rest revalidated', async () => {
    const expected: [string, string, string][] = [
      ['/sw.js', 'text/javascript; charset=utf-8', 'no-cache'],
      ['/manifest.webmanifest', 'application/manifest+json; charset=utf-8', 'no-cache'],
      ['/assets/index-AbC123.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
      ['/icon-192.png', 'image/png', 'no-cache'],
    ];
    for (const [url, type, cacheControl] of expected) {
      const answer = await steady.app.inject({ method: 'GET', url });
      assert.equal(answer.statusCode, 200, url);
      assert.equal(answer.headers['content-type'], type, url);
      assert.equal(answer.headers['cache-control'], cacheControl, url);
      assert.deepEqual(answer.rawPayload, await fsp.readFile(path.join(webRoot, url)), url);
    }
  });

  it('answers a revalidation with 304 and no body while the file is unchanged', async () => {
    const first = await steady.app.inject({ method: 'GET', url: '/sw.js' });
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[\w-]{10,}"$/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await steady.app.inject({
        method: 'GET',
        url: '/sw.js',
        headers: { 'if-none-match': ifNoneMatch },
      });
      assert.equal(again.statusCode, 304, ifNoneMatch);
      assert.equal(again.body, '', ifNoneMatch);
      assert.equal(again.headers.etag, etag, ifNoneMatch);
    }
    const stale = await steady.app.inject({ method: 'GET', url: '/sw.js', headers: { 'if-none-match': '"old"' } });
    assert.equal(stale.statusCode, 200);
    const index = await steady.app.inject({ method: 'GET', url: '/' });
    assert.notEqual(index.headers.etag, etag, 'each file has its own tag');
  });

  it('answers HEAD with the headers and no body', async () => {
    const answer = await steady.app.inject({ method: 'HEAD', url: '/assets/index-AbC123.js' });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(answer.body, '');
  });

  it('answers 404 for anything that is not a file of the build, outside it included', async () => {
    for (const url of [
      '/missing.js',
      '/assets/',
      '/assets',
      '/../package.json',
      '/assets/..%2F..%2Fpackage.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/index.html/',
    ]) {
      const answer = await steady.app.inject({ method: 'GET', url });
      assert.equal(answer.statusCode, 404, url);
      assert.doesNotMatch(answer.body, /"name":\s*"steady"|root:/, url);
    }
  });
});

describe('the web app before a build', () => {
  it('answers / with a page that says how to build it', async () => {
    const steady = await createTestApp();
    try {
      const answer = await steady.app.inject({ method: 'GET', url: '/' });
      assert.equal(answer.statusCode, 200);
      assert.match(answer.body, /npm run build/);
    } finally {
      await steady.close();
    }
  });
});
