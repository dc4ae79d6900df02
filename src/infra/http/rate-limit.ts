import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from './problems.ts';
import { policyItem, stateItem } from './rate-limit-headers.ts';

/** Probes, keys, documents and metrics are never limited: monitors and verifiers poll them. */
export const RATE_LIMIT_EXEMPT = new Set([
  '/healthz',
  '/readyz',
  '/metrics',
  '/api/v1/openapi.json',
  '/.well-known/jwks.json',
]);

export interface RateLimitOptions {
  /** Requests per minute per client address; 0 turns the general limit off. */
  perMinute: number;
  /** When set, the counts live in Redis so every process of a deployment shares them. */
  redisUrl: string | null;
  /** The operator API's own limit, counted per credential rather than per address. */
  operator?: OperatorLimit;
}

/**
 * A limit of its own for an authenticated API: requests per minute per caller (an operator key),
 * never shared with the public traffic of the same address. Its routes' authentication runs first
 * (an `onRequest` hook of their plugin; the limit's hook is the route's own, which Fastify runs
 * last), so `callerOf` knows the caller; failed authentications have their own per-address limit.
 */
export interface OperatorLimit {
  /** Path prefix of the routes it covers, e.g. `/api/v1/operator`. */
  prefix: string;
  /** Requests per minute per caller; 0 turns it off. */
  perMinute: number;
  /** The authenticated caller's stable id (an operator key's id), if any. */
  callerOf: (request: FastifyRequest) => string | undefined;
}

interface AppliedLimit {
  policy: 'general' | 'operator';
  perMinute: number;
  key: string;
}

/**
 * The operator API has a limit of its own (`OperatorLimit`): OPERATOR_RATE_LIMIT_PER_MINUTE requests
 * per operator key, with a `"operator"` item, so a burst of guests behind the desk's address never
 * locks the desk out, and the desk's traffic never counts against its guests.
 *
 * The general limit (API.md section 1): RATE_LIMIT_PER_MINUTE requests per client address per
 * minute, counted per process or in Redis; over it, 429 `rate_limited` with `Retry-After`. Limited
 * responses carry the IETF `RateLimit-Policy` and `RateLimit` headers with a `"general"` item; a
 * feature's own limit (check-in proofs, operator authentication) adds its item beside it
 * (`rate-limit-headers.ts`), so each limit reports its own numbers.
 *
 * The plugin is registered even when the general limit is off, so features can still build their
 * own limits on the same store with `app.createRateLimit(...)` or a route's `config.rateLimit`.
 * Must be registered before the routes it limits (it attaches to routes as they are added).
 */
export const rateLimit = fp(async (app: FastifyInstance, opts: RateLimitOptions) => {
  const operator = opts.operator;
  const isOperatorRoute = (url: string | undefined) =>
    operator !== undefined &&
    url !== undefined &&
    (url === operator.prefix || url.startsWith(`${operator.prefix}/`));
  /** Which limit counts a request, and under which key: the two never share a counter. */
  const limitOf = (request: FastifyRequest): AppliedLimit => {
    if (operator && isOperatorRoute(request.routeOptions.url)) {
      const caller = operator.callerOf(request);
      return {
        policy: 'operator',
        perMinute: operator.perMinute,
        key: caller ? `operator:${caller}` : `operator-address:${normalizeIP(request.ip)}`,
      };
    }
    return { policy: 'general', perMinute: opts.perMinute, key: normalizeIP(request.ip) };
  };

  // Runs before the rate-limit plugin's own onRoute hook, which then skips these routes: the exempt
  // ones, and those whose limit is off (0). The plugin's hook would count nothing there (`allowList`
  // passes every request of a limit that is off) yet costs each request an async hook and three
  // turns of promises. A route with a limit of its own (`config.rateLimit`) keeps it.
  app.addHook('onRoute', (route) => {
    const own = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
    const off =
      own === undefined && (isOperatorRoute(route.url) ? (operator?.perMinute ?? 0) : opts.perMinute) === 0;
    if (RATE_LIMIT_EXEMPT.has(route.url) || off) {
      route.config = { ...(route.config as object), rateLimit: false } as typeof route.config;
    }
  });

  // The plugin writes the obsolete `RateLimit-Limit/-Remaining/-Reset` trio (its "draft spec" mode);
  // rewrite them as the current draft's structured lists, after any item a feature's limit added.
  // A callback hook: every answer passes here, most without a limit (an async hook costs a turn).
  app.addHook('onSend', (request, reply, payload, done) => {
    const quota = reply.getHeader('ratelimit-limit');
    if (quota === undefined) return done(null, payload);
    const applied = {
      policy: limitOf(request).policy,
      quota: Number(quota),
      windowSeconds: 60,
      remaining: Number(reply.getHeader('ratelimit-remaining') ?? 0),
      resetSeconds: Number(reply.getHeader('ratelimit-reset') ?? 0),
    };
    reply.removeHeader('ratelimit-limit');
    reply.removeHeader('ratelimit-remaining');
    reply.removeHeader('ratelimit-reset');
    const append = (name: string, item: string) => {
      const existing = reply.getHeader(name);
      reply.header(name, existing === undefined ? item : `${String(existing)}, ${item}`);
    };
    append('ratelimit-policy', policyItem(applied));
    append('ratelimit', stateItem(applied));
    done(null, payload);
  });

  let redis: Redis | undefined;
  if (opts.redisUrl) {
    // Loaded only when configured: most deployments (and every test process) never use Redis.
    const { Redis } = await import('ioredis');
    redis = new Redis(opts.redisUrl, {
      // Fail fast while Redis is away instead of queueing requests behind a reconnect.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      lazyConnect: true,
    });
    let lastWarning = 0;
    redis.on('error', (err) => {
      if (Date.now() - lastWarning < 30_000) return;
      lastWarning = Date.now();
      app.log.warn({ err }, 'rate limit store (Redis) unreachable: requests pass unlimited until it is back');
    });
    await redis.connect().catch(() => {
      // Logged by the error listener; ioredis keeps reconnecting in the background.
    });
    const client = redis;
    app.addHook('onClose', async () => {
      client.disconnect();
    });
  }

  await app.register(fastifyRateLimit, {
    global: opts.perMinute > 0 || (operator?.perMinute ?? 0) > 0,
    keyGenerator: (request) => limitOf(request).key,
    max: (request) => limitOf(request).perMinute,
    // A limit set to 0 is off: its requests are not counted at all.
    allowList: (request) => limitOf(request).perMinute === 0,
    timeWindow: 60_000,
    enableDraftSpec: true,
    ...(redis ? { redis, nameSpace: 'innkeep:rate-limit:' } : {}),
    // Availability over limiting: an unreachable Redis lets requests through rather than failing them.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests; retry in ${context.after}.`),
  });
});
