/**
 * Which browsers may call which part of the API (API.md section 1, "browsers"): a pure function of
 * the request path, so the policy is testable without routes and every future route under a prefix
 * inherits its prefix's policy.
 */

/** Headers a browser script may send cross-origin. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-Match',
  'X-Request-Id',
];

/** Headers a browser script may read on a cross-origin response. */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Idempotent-Replayed',
  'Retry-After',
  'X-Request-Id',
  'RateLimit-Policy',
  'RateLimit',
];

/** Public endpoints: sections 2, 3 and 5 of the contract. Anything else is not public. */
const PUBLIC_PREFIXES = ['/api/v1/booking', '/api/v1/checkin'];
const PUBLIC_PATHS = new Set([
  '/.well-known/jwks.json',
  '/api/v1/openapi.json',
  '/api/v1/payments/config',
  '/healthz',
  '/readyz',
]);
const OPERATOR_PREFIX = '/api/v1/operator';

export type CorsPolicy =
  /** Any origin, no credentials: a hotel's website on its own domain books and checks in guests. */
  | { kind: 'public' }
  /** Only the configured origins (CORS_ORIGINS): the operator API carries a hotel's keys. */
  | { kind: 'operator'; origins: ReadonlySet<string> }
  /** No CORS header at all: the browser's same-origin policy stands (docs, metrics, unknown paths). */
  | { kind: 'none' };

function underPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The configured origins as a set, made once per list (the config's, for every request). */
const originSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function originSet(corsOrigins: readonly string[]): ReadonlySet<string> {
  let set = originSets.get(corsOrigins);
  if (!set) {
    set = new Set(corsOrigins);
    originSets.set(corsOrigins, set);
  }
  return set;
}

/** The CORS policy of a request path (the query string, if any, is ignored). */
export function corsPolicyFor(url: string, corsOrigins: readonly string[]): CorsPolicy {
  const path = url.split('?', 1)[0] as string;
  if (PUBLIC_PATHS.has(path) || PUBLIC_PREFIXES.some((prefix) => underPrefix(path, prefix))) {
    return { kind: 'public' };
  }
  if (underPrefix(path, OPERATOR_PREFIX)) return { kind: 'operator', origins: originSet(corsOrigins) };
  return { kind: 'none' };
}
