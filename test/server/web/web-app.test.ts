import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { createTestApp, type TestApp } from '../../support/app.js';
import { writeWebBuild } from '../../support/web-build.js';

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

  it('sends text compressed to a browser that asks, with a tag of its own, and revalidates that form', async () => {
    const url = '/assets/app-Large1.js';
    const file = await fsp.readFile(path.join(webRoot, url));
    const plain = await steady.app.inject({ method: 'GET', url });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'accept-encoding');
    for (const [acceptEncoding, encoding, decompress] of [
      ['gzip, deflate, br, zstd', 'br', zlib.brotliDecompressSync],
      ['gzip, deflate', 'gzip', zlib.gunzipSync],
    ] as const) {
      const answer = await steady.app.inject({ method: 'GET', url, headers: { 'accept-encoding': acceptEncoding } });
      assert.equal(answer.headers['content-encoding'], encoding);
      assert.equal(answer.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(answer.headers.vary, 'accept-encoding');
      assert.ok(answer.rawPayload.length < file.length / 10, `${encoding}: ${answer.rawPayload.length} bytes`);
      assert.deepEqual(decompress(answer.rawPayload), file);
      const etag = String(answer.headers.etag);
      assert.notEqual(etag, plain.headers.etag, `${encoding} has a tag of its own`);
      const again = await steady.app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': acceptEncoding, 'if-none-match': etag },
      });
      assert.equal(again.statusCode, 304, encoding);
      assert.equal(again.headers.vary, 'accept-encoding');
      const other = await steady.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      assert.equal(other.statusCode, 200, `the ${encoding} tag does not match the plain form`);
    }
    const photo = await steady.app.inject({
      method: 'GET',
      url: '/assets/photo-Large2.png',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    assert.equal(photo.headers['content-encoding'], undefined, 'images are sent as they are');
    assert.equal(photo.headers.vary, undefined);
    assert.equal(photo.rawPayload.length, 4096);
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
