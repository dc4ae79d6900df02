import { isIP } from 'node:net';

/** Fastify's `trustProxy`, as far as TRUST_PROXY can set it (API.md section 6). */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: `true` / `false` (any case), a hop count, or a comma-separated list of proxy
 * addresses, CIDRs and proxy-addr's range names. Anything else is refused, never read as false:
 * a mistyped value would put every guest behind the load balancer on one address for rate limits.
 */
export function parseTrustProxy(raw: string | null): TrustProxy | { problem: string } {
  if (raw === null) return false;
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    return hops <= 100 ? hops : { problem: `TRUST_PROXY as a hop count must be 0 to 100 (got "${raw}")` };
  }
  const entries = raw.split(',').map((e) => e.trim());
  const bad = entries.filter((entry) => {
    if (PROXY_RANGE_NAMES.has(entry.toLowerCase())) return false;
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) return true;
    if (bits === undefined) return false;
    return !/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128);
  });
  if (bad.length > 0) {
    return {
      problem:
        'TRUST_PROXY must be true, false, a hop count (e.g. 1) or a comma-separated list of proxy ' +
        `addresses or CIDRs (e.g. 10.0.0.0/8,192.168.1.10); ${bad.map((b) => `"${b}"`).join(', ')} ` +
        `is none of these (got "${raw}")`,
    };
  }
  return entries.map((e) => (PROXY_RANGE_NAMES.has(e.toLowerCase()) ? e.toLowerCase() : e));
}
