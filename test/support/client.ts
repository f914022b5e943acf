import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { documentCheck } from './contract-check.js';

export interface TestResponse {
  status: number;
  headers: OutgoingHttpHeaders;
  text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  body: any;
  /** Raw `Set-Cookie` lines of this response. */
  setCookies: string[];
}

/**
 * Talks to the app like a browser on our own origin: keeps cookies between requests (honouring Max-Age=0),
 * sends JSON with `Origin`, and never lets a test forget the content type. Every answer is checked against the
 * app's OpenAPI document (contract-check.ts): an undocumented status or shape fails the test that got it.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  /** The client's network address as the server sees it (`request.ip`); inject's default when undefined. */
  remoteAddress: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly origin: string,
    options: { remoteAddress?: string } = {},
  ) {
    this.remoteAddress = options.remoteAddress;
  }

  get(url: string, headers: Record<string, string | undefined> = {}) {
    return this.request('GET', url, undefined, headers);
  }
  post(url: string, body?: unknown, headers: Record<string, string | undefined> = {}) {
    return this.request('POST', url, body, headers);
  }
  patch(url: string, body?: unknown, headers: Record<string, string | undefined> = {}) {
    return this.request('PATCH', url, body, headers);
  }
  put(url: string, body?: unknown, headers: Record<string, string | undefined> = {}) {
    return this.request('PUT', url, body, headers);
  }
  delete(url: string, headers: Record<string, string | undefined> = {}) {
    return this.request('DELETE', url, undefined, headers);
  }

  /**
   * `body` undefined sends no body; a string or Buffer is sent as is (for malformed-JSON and non-UTF-8 tests).
   * A header given as undefined is left out, e.g. `{ origin: undefined }` for a client that sends no Origin.
   */
  async request(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string | undefined> = {},
  ): Promise<TestResponse> {
    const payload =
      body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    const allHeaders: Record<string, string | undefined> = {
      origin: this.origin,
      ...(payload !== undefined && { 'content-type': 'application/json' }),
      ...(this.cookies.size > 0 && { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }),
      ...headers,
    };
    const response = await this.app.inject({
      method: method as 'GET',
      url,
      headers: Object.fromEntries(Object.entries(allHeaders).filter(([, value]) => value !== undefined)) as Record<
        string,
        string
      >,
      ...(payload !== undefined && { payload }),
      ...(this.remoteAddress !== undefined && { remoteAddress: this.remoteAddress }),
    });
    const contentType = response.headers['content-type'];
    documentCheck(this.app).check({
      method,
      url,
      status: response.statusCode,
      contentType: typeof contentType === 'string' ? contentType : undefined,
      text: response.body,
    });
    const raw = response.headers['set-cookie'];
    const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    for (const line of setCookies) this.storeCookie(line);
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.body);
    } catch {
      parsed = undefined;
    }
    return { status: response.statusCode, headers: response.headers, text: response.body, body: parsed, setCookies };
  }

  /** A second client holding the same cookies, as a copied cookie jar would (for replay tests). */
  clone(): TestClient {
    const copy = new TestClient(this.app, this.origin, { remoteAddress: this.remoteAddress });
    for (const [k, v] of this.cookies) copy.cookies.set(k, v);
    return copy;
  }

  private storeCookie(line: string): void {
    const [pair, ...attributes] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
    if (expired) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}
