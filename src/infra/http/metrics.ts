import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.ts';
import { type DomainEvent, domainMetrics } from '../metrics/domain-metrics.ts';
import { sendProblem } from './error-handler.ts';

/** Requests that matched no route share one label, so scanners cannot blow up the series count. */
const UNMATCHED = 'unmatched';
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const DOMAIN_COUNTERS: Array<{ name: string; help: string; event: DomainEvent }> = [
  { name: 'innkeep_reservations_created_total', help: 'Reservations created', event: 'reservation_created' },
  {
    name: 'innkeep_reservations_cancelled_total',
    help: 'Reservations cancelled',
    event: 'reservation_cancelled',
  },
  {
    name: 'innkeep_checkins_completed_total',
    help: 'Check-in sessions completed',
    event: 'checkin_completed',
  },
];

/**
 * Prometheus metrics at `GET /metrics`, in a registry of this app's own (tests build several apps).
 * Requests are labelled by route pattern, never the raw URL: paths carry reservation codes and
 * session ids, which are secrets.
 */
export interface MetricsOptions {
  db: Database;
  /** Metrics features add to the registry (handed down by the app, which knows the features). */
  collectors?: Array<(registry: Registry, db: Database) => void>;
  /** METRICS_TOKEN: the bearer token a scrape must send; null = loopback clients only. */
  token: string | null;
}

const METRICS_REALM = 'Bearer realm="innkeep-metrics"';
const digest = (text: string) => createHash('sha256').update(text).digest();

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/^::ffff:/i, '');
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/**
 * Whether a proxy says it passed the request on: any header a proxy adds (`Forwarded`, any
 * `X-Forwarded-*`, `X-Real-IP`, `Via`). One alone is enough: nginx may send only `X-Real-IP`, a
 * cache only `Via`.
 */
function cameThroughProxy(request: FastifyRequest): boolean {
  return Object.keys(request.headers).some(
    (name) =>
      name === 'forwarded' || name === 'x-real-ip' || name === 'via' || name.startsWith('x-forwarded-'),
  );
}

/**
 * Who may read `/metrics` (API.md 5): with a token, whoever sends it (`401` otherwise, whatever the
 * address); without one, only a client on this host that talks to the service directly: the
 * connection's peer is loopback and no proxy header came with the request (a reverse proxy on the
 * same host would otherwise make every client look local). Anyone else gets the unknown-route `404`.
 */
function metricsAccess(request: FastifyRequest, token: string | null): 'allowed' | 'unauthorized' | 'hidden' {
  if (token !== null) {
    const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
    return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token))
      ? 'allowed'
      : 'unauthorized';
  }
  return !cameThroughProxy(request) && isLoopback(request.socket.remoteAddress) && isLoopback(request.ip)
    ? 'allowed'
    : 'hidden';
}

export const metrics = fp(async (app: FastifyInstance, opts: MetricsOptions) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'innkeep_http_requests_total',
    help: 'HTTP requests answered, by route pattern',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'innkeep_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });

  for (const { name, help, event } of DOMAIN_COUNTERS) {
    new Counter({
      name,
      help,
      labelNames: ['hotel'],
      registers: [registry],
      collect() {
        // The totals live outside the registry (domain-metrics.ts); copy them in at scrape time.
        this.reset();
        for (const [hotel, total] of domainMetrics.totals(event)) this.inc({ hotel }, total);
      },
    });
  }

  // Connections and the requests waiting for one are different things: two metrics, not one.
  new Gauge({
    name: 'innkeep_db_pool_connections',
    help: 'Database connections open: total, and idle among them',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = opts.db.poolStats();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
    },
  });
  new Gauge({
    name: 'innkeep_db_pool_waiting_requests',
    help: 'Queries waiting for a database connection',
    registers: [registry],
    collect() {
      this.set(opts.db.poolStats().waiting);
    },
  });

  for (const add of opts.collectors ?? []) add(registry, opts.db);
  // Load shedding's expected and actual waits (load-shedding.ts), when it is registered.
  if (app.hasDecorator('loadSheddingMetrics')) {
    for (const metric of app.loadSheddingMetrics) registry.registerMetric(metric);
  }

  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED,
      status_code: reply.statusCode,
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    const access = metricsAccess(request, opts.token);
    if (access === 'unauthorized') {
      return sendProblem(
        request,
        reply,
        'unauthorized',
        'Send the metrics token: `Authorization: Bearer <METRICS_TOKEN>`.',
        {
          headers: { 'www-authenticate': METRICS_REALM },
        },
      );
    }
    if (access === 'hidden') {
      // As for a path no route serves: the endpoint's existence is not for the public either.
      return sendProblem(request, reply, 'not_found', `No endpoint at ${request.method} /metrics.`, {
        members: { unknownRoute: true },
      });
    }
    const body = await registry.metrics();
    return reply.type(registry.contentType).send(body);
  });
});
