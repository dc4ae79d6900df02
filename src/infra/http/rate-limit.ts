import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { AppError } from './problems.ts';

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
}

/**
 * The general limit (API.md section 1): RATE_LIMIT_PER_MINUTE requests per client address per
 * minute, counted per process or in Redis; over it, 429 `rate_limited` with `Retry-After` and the
 * draft-7 `RateLimit-Limit` / `RateLimit-Remaining` / `RateLimit-Reset` headers.
 *
 * The plugin is registered even when the general limit is off, so features can still build their
 * own limits on the same store with `app.createRateLimit(...)` or a route's `config.rateLimit`.
 * Must be registered before the routes it limits (it attaches to routes as they are added).
 */
export const rateLimit = fp(async (app: FastifyInstance, opts: RateLimitOptions) => {
  // Runs before the rate-limit plugin's own onRoute hook, which then skips these routes.
  app.addHook('onRoute', (route) => {
    if (RATE_LIMIT_EXEMPT.has(route.url)) {
      route.config = { ...(route.config as object), rateLimit: false } as typeof route.config;
    }
  });

  let redis: Redis | undefined;
  if (opts.redisUrl) {
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
    global: opts.perMinute > 0,
    max: opts.perMinute,
    timeWindow: 60_000,
    enableDraftSpec: true,
    ...(redis ? { redis, nameSpace: 'innkeep:rate-limit:' } : {}),
    // Availability over limiting: an unreachable Redis lets requests through rather than failing them.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests; retry in ${context.after}.`),
  });
});
