import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Compressed answers for the bodies that are built once and sent many times: the cached goal list and the web
 * app's files (docs/decisions/0119-compressed-answers-and-lighter-hooks.md). Every browser asks for them (`Accept-Encoding`), and on a
 * phone's network a 24 kB goal list that travels as 2 kB arrives sooner; the server writes fewer bytes too. Each
 * compressed form is made once per body, when it is first asked for.
 *
 * Neither body carries a secret beside text an attacker chooses, so compression opens no BREACH-style leak.
 */

export type ContentEncoding = 'br' | 'gzip';

/** Smaller bodies gain little from compression (a TCP packet holds them anyway) and are sent as they are. */
export const MIN_COMPRESSED_BYTES = 1024;

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/*
 * Up to this size a body is compressed on the event loop (at most about 0.5 ms, once per body), larger ones in
 * Node's thread pool. Measured with the bench: compressing 24 kB lists in the pool, 20 at a time after a change,
 * took the peak RSS from 120 to 135 MB (each compression's encoder and stream, allocated in the pool threads'
 * own malloc arenas); on the event loop one encoder exists at a time.
 */
const COMPRESS_IN_POOL_ABOVE_BYTES = 64 * 1024;

/*
 * Brotli quality 5 and gzip level 1, measured on goal lists: Brotli 5 turns 21 kB into 1.5 kB in about 0.3 ms and
 * 8 MB into 0.1 MB in 50-70 ms (6-8 ns a byte, a fifth of building the list); quality 11 gains a fifth more for
 * 70 times the time. gzip, for clients without Brotli (browsers leave it out on plain http beyond localhost),
 * costs 6 ns a byte at level 1 and 50 at level 6, for a third fewer bytes. The list is compressed again after each
 * change, so the cheaper settings win.
 */
function compress(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  const inPool = body.length > COMPRESS_IN_POOL_ABOVE_BYTES;
  if (encoding === 'gzip') {
    const options = { level: 1 };
    return inPool ? gzip(body, options) : Promise.resolve(zlib.gzipSync(body, options));
  }
  const options = {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      // A window larger than the body buys nothing and costs memory (4 MB at the default of 22 bits).
      [zlib.constants.BROTLI_PARAM_LGWIN]: Math.min(
        zlib.constants.BROTLI_DEFAULT_WINDOW,
        Math.max(zlib.constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(body.length + 1))),
      ),
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  };
  return inPool ? brotliCompress(body, options) : Promise.resolve(zlib.brotliCompressSync(body, options));
}

/**
 * The encoding to answer with, from `Accept-Encoding` (RFC 9110 12.5.3): the acceptable one with the highest
 * weight, Brotli on a tie (it is smaller); `*` covers both unless named; `q=0` refuses. Null: send as it is.
 */
export function acceptedEncoding(header: string | undefined): ContentEncoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [token = '', ...parameters] = part.split(';');
    const coding = token.trim().toLowerCase();
    if (coding === '') continue;
    let weight = 1;
    for (const parameter of parameters) {
      const [name = '', value = ''] = parameter.split('=');
      if (name.trim().toLowerCase() !== 'q') continue;
      // A weight that is not a number from 0 to 1 makes the entry unusable rather than preferred.
      weight = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value.trim()) ? Number(value.trim()) : 0;
    }
    weights.set(coding === 'x-gzip' ? 'gzip' : coding, weight);
  }
  const weightOf = (coding: ContentEncoding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gz = weightOf('gzip');
  if (br === 0 && gz === 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

/**
 * A body and its compressed forms, each made at most once. `onCompressed` learns the size of each form made, so a
 * cache holding this body can count it against its budget.
 */
export class CompressibleBody {
  private readonly forms = new Map<ContentEncoding, Promise<Buffer>>();

  constructor(
    readonly body: Buffer,
    private readonly onCompressed?: (bytes: number) => void,
  ) {}

  /** The body in `encoding`; a failed compression is tried again by the next caller. */
  encoded(encoding: ContentEncoding): Promise<Buffer> {
    let form = this.forms.get(encoding);
    if (!form) {
      form = compress(this.body, encoding).then(
        (bytes) => {
          this.onCompressed?.(bytes.length);
          return bytes;
        },
        (error: unknown) => {
          this.forms.delete(encoding);
          throw error;
        },
      );
      this.forms.set(encoding, form);
    }
    return form;
  }
}

// A browser sends the same Accept-Encoding with every request, so the last header's answer is kept.
let lastHeader: string | undefined;
let lastEncoding: ContentEncoding | null = null;

/** The encoding this request gets for this body: null when it is small or the client asked for none. */
export function encodingFor(request: FastifyRequest, body: Buffer): ContentEncoding | null {
  if (body.length < MIN_COMPRESSED_BYTES) return null;
  const header = request.headers['accept-encoding'];
  if (header !== lastHeader) {
    lastEncoding = acceptedEncoding(header);
    lastHeader = header;
  }
  return lastEncoding;
}

/**
 * Sends `compressible` in `encoding` (from `encodingFor`), or as it is for null. `Vary: Accept-Encoding` is set on
 * every answer of such a route, compressed or not, so no cache in between hands one client's form to another.
 */
export async function sendCompressible(
  reply: FastifyReply,
  compressible: CompressibleBody,
  encoding: ContentEncoding | null,
): Promise<FastifyReply> {
  reply.header('vary', 'accept-encoding');
  if (encoding === null) return reply.send(compressible.body);
  const bytes = await compressible.encoded(encoding);
  return reply.header('content-encoding', encoding).send(bytes);
}
