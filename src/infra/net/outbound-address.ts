import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the service may send a request a user configured (SSRF): webhooks today, iCal imports
 * later. Never to the service's own host, the private network behind it or the cloud metadata
 * services, however the address is spelled.
 */
const FORBIDDEN = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT (RFC 6598), also Alibaba's metadata 100.100.100.200
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, the metadata service 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates into a private network, any embedding
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32 (tunnels to any IPv4 address) among them
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address in text form (a trailing dotted quad allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':') : []);
  const left = parse(halves[0]);
  const right = parse(halves[1]);
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...right];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries, in every form that can make a connection reach that
 * IPv4 host: IPv4-compatible `::a.b.c.d` (::/96, deprecated but still routed by some stacks),
 * IPv4-mapped `::ffff:a.b.c.d`, SIIT IPv4-translated `::ffff:0:a.b.c.d` (RFC 7915), NAT64's
 * well-known prefix `64:ff9b::/96` (RFC 6052), 6to4 `2002:AABB:CCDD::/16`, and ISATAP interface
 * ids `…:0:5efe:a.b.c.d` / `…:200:5efe:a.b.c.d` under any prefix. (Teredo and local-use NAT64
 * are refused whole: FORBIDDEN above.)
 */
export function embeddedIpv4Addresses(address: string): string[] {
  const g = ipv6Groups(address);
  if (!g) return [];
  const found: string[] = [];
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const [g0, g1, g2, , g4, g5, g6, g7] = g as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (zero(0, 6)) found.push(quad(g6, g7)); // IPv4-compatible (also :: and ::1, refused anyway)
  if (zero(0, 5) && g5 === 0xffff) found.push(quad(g6, g7)); // IPv4-mapped
  if (zero(0, 4) && g4 === 0xffff && g5 === 0) found.push(quad(g6, g7)); // SIIT IPv4-translated
  if (g0 === 0x64 && g1 === 0xff9b && zero(2, 6)) found.push(quad(g6, g7)); // NAT64 well-known
  if (g0 === 0x2002) found.push(quad(g1, g2)); // 6to4
  if ((g4 === 0 || g4 === 0x200) && g5 === 0x5efe) found.push(quad(g6, g7)); // ISATAP
  return found;
}

/** Whether the service may connect to this IP address (literal, either family). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !FORBIDDEN.check(address, 'ipv4');
  if (family !== 6) return false;
  const bare = address.replace(/%.*$/, '');
  if (FORBIDDEN.check(bare, 'ipv6')) return false;
  return embeddedIpv4Addresses(bare).every((v4) => !FORBIDDEN.check(v4, 'ipv4'));
}

export interface OutboundTarget {
  url: URL;
  /** The checked address the connection must use (pinned: no second lookup, no rebinding). */
  address: string;
  family: 4 | 6;
}

export class OutboundAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundAddressError';
  }
}

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export interface OutboundOptions {
  /** Development and tests (`WEBHOOK_ALLOW_PRIVATE=true`): private addresses and `http` allowed. */
  allowPrivate: boolean;
  /** DNS; the system resolver by default (tests pass their own). */
  resolve?: Resolver;
}

/**
 * Whether the service may fetch this URL, and where to connect: `https` only and every address the
 * host resolves to public (`isPublicAddress`), unless `allowPrivate`, which also allows `http`.
 * Every address must pass, so one public record cannot smuggle in a private one; the first is used,
 * and the caller must connect to it (not look the name up again: DNS rebinding). Throws
 * `OutboundAddressError` saying why not.
 */
export async function resolveOutboundTarget(raw: string, options: OutboundOptions): Promise<OutboundTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundAddressError('is not an absolute URL');
  }
  const { allowPrivate } = options;
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new OutboundAddressError(allowPrivate ? 'must be an http or https URL' : 'must be an https URL');
  }
  if (url.username || url.password) throw new OutboundAddressError('must not hold a user name or password');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    const resolve = options.resolve ?? ((name: string) => lookup(name, { all: true, verbatim: true }));
    try {
      addresses = await resolve(host);
    } catch {
      throw new OutboundAddressError(`names a host that does not resolve (${host})`);
    }
    if (addresses.length === 0)
      throw new OutboundAddressError(`names a host that does not resolve (${host})`);
  }
  if (!allowPrivate) {
    // The address is not named: the error reaches the user (answers, stored delivery and import
    // errors), and a name's internal addresses are the network's to keep. A literal is their own.
    if (addresses.some((a) => !isPublicAddress(a.address))) {
      throw new OutboundAddressError(
        `${isIP(host) ? 'names' : 'resolves to'} a loopback, private, link-local or otherwise reserved address`,
      );
    }
  }
  const first = addresses[0] as { address: string; family: number };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
