import { isIPv6 } from 'node:net';

/**
 * The key under which a client address is throttled. An IPv6 host is usually given a whole /64 network, so
 * counting single IPv6 addresses would hand an attacker 2^64 fresh buckets: IPv6 clients count per /64.
 * An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, from a dual-stack socket) counts as its IPv4 address.
 */
export function addressThrottleKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const address = ip.split('%')[0]!; // a zone index (fe80::1%eth0) names our interface, not the client
  if (!isIPv6(address)) return ip;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, as lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const split = (part: string | undefined) => (part ? part.split(':') : []);
  // A dotted IPv4 ending (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) fills the last two groups.
  const width = (groups: string[]) => groups.reduce((sum, group) => sum + (group.includes('.') ? 2 : 1), 0);
  const headGroups = split(head);
  const tailGroups = split(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - width(headGroups) - width(tailGroups)).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) =>
    group.includes('.') ? group : parseInt(group, 16).toString(16),
  );
}
