import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { acceptedEncoding, CompressibleBody } from '../../../src/server/http/compression.js';

describe('Accept-Encoding', () => {
  const cases: Array<[string | undefined, 'br' | 'gzip' | null]> = [
    [undefined, null],
    ['', null],
    ['identity', null],
    ['deflate', null],
    // What Chromium sends on https, and on http (no br there).
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['br;q=0.2, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['br ; q=1.0 , gzip', 'br'],
    // A weight that is not one makes the entry unusable, never preferred.
    ['br;q=2, gzip;q=0.1', 'gzip'],
    ['br;q=abc', null],
    ['br;q=0.0001', null],
    [',,, ;q=1', null],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} -> ${expected}`, () => {
      assert.equal(acceptedEncoding(header), expected);
    });
  }
});

describe('a compressible body', () => {
  const body = Buffer.from(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: String(i), amount: i % 7 }))));

  it('decompresses to the same bytes in both encodings', async () => {
    const compressible = new CompressibleBody(body);
    const br = await compressible.encoded('br');
    const gz = await compressible.encoded('gzip');
    assert.ok(br.length < body.length / 4, `br ${br.length} of ${body.length} bytes`);
    assert.ok(gz.length < body.length / 4, `gzip ${gz.length} of ${body.length} bytes`);
    assert.deepEqual(zlib.brotliDecompressSync(br), body);
    assert.deepEqual(zlib.gunzipSync(gz), body);
  });

  it('makes each form once, however many ask at the same time, and reports its size once', async () => {
    const sizes: number[] = [];
    const compressible = new CompressibleBody(body, (bytes) => sizes.push(bytes));
    const forms = await Promise.all([1, 2, 3].map(() => compressible.encoded('br')));
    assert.ok(forms.every((form) => form === forms[0]));
    assert.equal(await compressible.encoded('br'), forms[0]);
    assert.deepEqual(sizes, [forms[0]!.length]);
  });
});
