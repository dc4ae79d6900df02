import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.ts';
import { type DomainEvent, domainMetrics } from '../metrics/domain-metrics.ts';

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
}

export const metrics = fp(async (app: FastifyInstance, opts: MetricsOptions) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
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

  new Gauge({
    name: 'innkeep_db_pool_connections',
    help: 'Database connections: total open, idle, and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = opts.db.poolStats();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });

  for (const add of opts.collectors ?? []) add(registry, opts.db);
  // Load shedding's expected and actual waits (load-shedding.ts), when it is registered.
  if (app.hasDecorator('loadSheddingMetrics')) {
    for (const metric of app.loadSheddingMetrics) registry.registerMetric(metric);
  }

  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED,
      status_code: reply.statusCode,
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) => {
    const body = await registry.metrics();
    return reply.type(registry.contentType).send(body);
  });
});
