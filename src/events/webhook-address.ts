import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach (SSRF): the service's own host, the private network behind
 * it and the cloud metadata services. IPv4-mapped, NAT64 and 6to4 IPv6 forms are checked as the
 * IPv4 address they carry.
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
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address an IPv6 address embeds (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1] ?? null;
  const groups = expandIpv6(lower);
  if (!groups) return null;
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return quad(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return quad(g6, g7);
  if (g0 === 0x2002) return quad(g1, g2);
  return null;
}

/** The eight 16-bit groups of an IPv6 address in text form (no embedded dotted quad). */
function expandIpv6(address: string): number[] | null {
  if (address.includes('.')) return null;
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map((g) =>
    Number.parseInt(g, 16),
  );
}

/** Whether a webhook may connect to this IP address. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family !== 6) return true;
  const bare = address.replace(/%.*$/, '');
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return FORBIDDEN.check(v4, 'ipv4');
  return FORBIDDEN.check(bare, 'ipv6');
}

export interface ResolvedTarget {
  url: URL;
  /** The checked address the connection must use (pinned: no second lookup, no rebinding). */
  address: string;
  family: 4 | 6;
}

export class WebhookAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookAddressError';
  }
}

/**
 * Checks a webhook URL and resolves its host: `https` only and no address in FORBIDDEN, unless
 * `allowPrivate` (development and tests), which also allows `http`. Every address the name resolves
 * to must pass, so one public record cannot smuggle in a private one; the first is used.
 */
export async function resolveWebhookTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<Array<{ address: string; family: number }>> = (host) =>
    lookup(host, { all: true, verbatim: true }),
): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookAddressError('is not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new WebhookAddressError(allowPrivate ? 'must be an http or https URL' : 'must be an https URL');
  }
  if (url.username || url.password) throw new WebhookAddressError('must not hold a user name or password');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new WebhookAddressError(`names a host that does not resolve (${host})`);
    }
    if (addresses.length === 0) throw new WebhookAddressError(`names a host that does not resolve (${host})`);
  }
  if (!allowPrivate) {
    const refused = addresses.find((a) => isForbiddenAddress(a.address));
    if (refused) {
      throw new WebhookAddressError(
        `resolves to ${refused.address}, a loopback, private, link-local or otherwise reserved address`,
      );
    }
  }
  const first = addresses[0] as { address: string; family: number };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
