import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './public-address.js';

/** Why a push endpoint is refused; the route answers 400 `invalid_push_endpoint` with this message. */
export class UnsafeEndpointError extends Error {
  override name = 'UnsafeEndpointError';
}

/** Longest endpoint URL accepted (browsers' endpoints are a few hundred characters). */
export const PUSH_ENDPOINT_MAX = 2048;

/**
 * Checks a push endpoint before it is stored and again before each send (docs/decisions/0103-push-endpoint-ssrf.md):
 * https only, and every address the host resolves to must be public. `testOrigin` (PUSH_TEST_ORIGIN) is the one
 * origin exempt from both rules, for a local push service in tests; a request can never widen it.
 */
export async function checkPushEndpoint(endpoint: string, testOrigin: string | null): Promise<URL> {
  const url = parseEndpoint(endpoint);
  if (testOrigin !== null && url.origin === testOrigin) return url;
  if (url.protocol !== 'https:') throw new UnsafeEndpointError('a push endpoint must be an https URL');
  const addresses = await resolveAll(url.hostname);
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    throw new UnsafeEndpointError('a push endpoint must resolve to public addresses only');
  }
  return url;
}

function parseEndpoint(endpoint: string): URL {
  if (endpoint.length > PUSH_ENDPOINT_MAX) throw new UnsafeEndpointError('the push endpoint is too long');
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new UnsafeEndpointError('the push endpoint is not a URL');
  }
  if (url.username || url.password) throw new UnsafeEndpointError('a push endpoint must not carry credentials');
  return url;
}

async function resolveAll(hostname: string): Promise<string[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return [bare];
  try {
    return (await dns.promises.lookup(bare, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw new UnsafeEndpointError('the push endpoint host does not resolve');
  }
}

/**
 * The `lookup` of the socket that sends a push: the addresses are checked where the connection is made, so a name
 * that resolved to a public address at subscribe time and to a private one now (DNS rebinding) is refused.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (error, entries) => {
    if (error) return callback(error, '', 0);
    const list = entries as dns.LookupAddress[];
    const refused = list.length === 0 || list.some((entry) => !isPublicAddress(entry.address));
    if (refused) {
      return callback(new UnsafeEndpointError(`${hostname} resolves to a non-public address`), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
