import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge, Histogram, type Metric } from 'prom-client';
import type { Database } from '../db/database.ts';
import { DbWaitEstimator } from './db-wait-estimator.ts';
import { AppError } from './problems.ts';

/** Liveness and metrics answer even when overloaded: restarting a busy process makes things worse. */
const NEVER_SHED = new Set(['/healthz', '/metrics']);
const RETRY_AFTER_SECONDS = 5;
const RESOLUTION_MS = 10;
/**
 * Samples in a row over the limit before shedding starts: one long pause (a large embedded-engine
 * query, a GC) is not overload; a backlog that keeps the loop late sample after sample is.
 */
const SUSTAINED_SAMPLES = 2;

/** How often the database connections used per request are re-estimated, and from how many requests. */
const USE_SAMPLE_MS = 1000;
const USE_SAMPLE_MIN_REQUESTS = 20;
const WAIT_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60];

export interface LoadSheddingOptions {
  db: Pick<Database, 'poolStats'>;
  /** Mean event-loop delay (ms) above which, sustained, requests are refused; 0 = off. */
  maxEventLoopDelayMs: number;
  /**
   * Expected wait for database connections (ms) above which a new request is refused; 0 = off.
   * The wait is estimated, not measured after the fact (db-wait-estimator.ts): the connection
   * checkouts ahead of the request and its own × the recent mean time a connection is held ÷ the
   * pool size, calibrated against what admitted requests then took.
   */
  maxDbWaitMs: number;
  /** How often the event-loop delay is sampled. */
  sampleIntervalMs?: number;
  /** How often the checkouts per request are re-estimated (ms; tests make it short). */
  useSampleMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The last sampled mean event-loop delay and whether requests are being shed for it; the
     * expected wait for database connections of a request arriving now.
     */
    loadStatus(): {
      eventLoopDelayMs: number;
      overloaded: boolean;
      dbWaitMs: number;
      /** Checkouts per request and the calibration factor of the wait estimate, as they stand. */
      checkoutsPerRequest: number;
      calibration: number;
    };
    /** The expected and actual waits of shedding (for `/metrics`; registered by metrics.ts). */
    loadSheddingMetrics: Metric[];
  }
}

function overloaded(detail: string, retryAfterSeconds = RETRY_AFTER_SECONDS): AppError {
  return new AppError('service_unavailable', detail, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

/**
 * Load shedding: while the process is overloaded (its event loop runs late, sample after sample)
 * or a new request would wait longer than `maxDbWaitMs` for database connections, new requests get
 * a fast 503 `service_unavailable` with `Retry-After` instead of queueing into a timeout and
 * deepening the backlog.
 *
 * A long queue alone is no reason to refuse: a burst of a thousand quotes (a flash sale) queues
 * hundreds of requests for a 10-connection pool, yet drains in a second or two because each holds
 * its connection for milliseconds. What matters to the client is the wait, so that is what is
 * estimated, from the queue and how fast it has been moving.
 *
 * Sampling starts when the app is ready, so the work of starting (migrations and catalogue on the
 * embedded engine, which runs on the event loop) is never mistaken for overload.
 */
export const loadShedding = fp(async (app: FastifyInstance, opts: LoadSheddingOptions) => {
  let delayMs = 0;
  let lateSamples = 0;
  const { db, maxDbWaitMs } = opts;
  const estimator = new DbWaitEstimator();
  /**
   * Requests admitted and not yet answered. In a burst they arrive faster than they reach the
   * pool's queue, so the queue alone would admit the whole burst before it looked long.
   */
  let inFlight = 0;
  const expectedWait = new Histogram({
    name: 'innkeep_db_wait_expected_seconds',
    help: 'Expected wait for the database of each request checked by load shedding (calibrated), by outcome',
    labelNames: ['outcome'],
    buckets: WAIT_BUCKETS,
    registers: [],
  });
  const actualWait = new Histogram({
    name: 'innkeep_db_wait_actual_seconds',
    help: 'What admitted requests then took, admission to answer (what the expected wait is calibrated against)',
    buckets: WAIT_BUCKETS,
    registers: [],
  });
  const calibration = new Gauge({
    name: 'innkeep_db_wait_calibration_ratio',
    help: 'Actual over estimated wait of recent admitted requests (the factor applied to the estimate)',
    registers: [],
    collect() {
      this.set(estimator.factor);
    },
  });
  app.decorate('loadSheddingMetrics', [expectedWait, actualWait, calibration] as Metric[]);
  app.decorate('loadStatus', () => ({
    eventLoopDelayMs: delayMs,
    overloaded: lateSamples >= SUSTAINED_SAMPLES,
    dbWaitMs: estimator.expected(db.poolStats(), inFlight).expectedMs,
    checkoutsPerRequest: estimator.checkoutsPerRequest,
    calibration: estimator.factor,
  }));

  // Admitted requests that have ended, so made all their checkouts (shed ones make none, and those
  // still in flight have not made theirs yet: a burst would read as one checkout per request).
  let ended = 0;
  if (maxDbWaitMs > 0) {
    let last = { ended: 0, checkouts: db.poolStats().checkouts };
    const timer = setInterval(() => {
      const checkouts = db.poolStats().checkouts;
      const requests = ended - last.ended;
      // Background work (housekeeping, catalogue refresh) also checks out connections: estimate
      // only from a window with enough requests that they dominate.
      if (requests >= USE_SAMPLE_MIN_REQUESTS)
        estimator.sampleCheckouts(checkouts - last.checkouts, requests);
      last = { ended, checkouts };
    }, opts.useSampleMs ?? USE_SAMPLE_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }

  if (opts.maxEventLoopDelayMs > 0) {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      histogram.enable();
      timer = setInterval(() => {
        delayMs = histogram.count > 0 ? Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS) : 0;
        histogram.reset();
        lateSamples = delayMs > opts.maxEventLoopDelayMs ? lateSamples + 1 : 0;
      }, opts.sampleIntervalMs ?? 500);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      histogram.disable();
    });
  }

  // While the app closes, every new request gets this 503 (Fastify's own, `return503OnClosing`, is
  // plain JSON and off in app.ts); Fastify adds `Connection: close` to it. Health checks too: a
  // balancer must stop sending traffic here.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  // A callback hook (every request runs it; an async one costs a promise turn each time).
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) return done(overloaded('The service is shutting down; retry shortly.', 1));
    if (NEVER_SHED.has(request.routeOptions.url ?? '')) return done();
    if (lateSamples >= SUSTAINED_SAMPLES) {
      request.log.warn({ eventLoopDelayMs: delayMs }, 'overloaded: request shed');
      return done(overloaded('The service is overloaded; retry shortly.'));
    }
    if (maxDbWaitMs > 0) {
      const { rawMs, expectedMs } = estimator.expected(db.poolStats(), inFlight);
      if (expectedMs > maxDbWaitMs) {
        expectedWait.observe({ outcome: 'shed' }, expectedMs / 1000);
        request.log.warn(
          { waiting: db.poolStats().waiting, inFlight, waitMs: Math.round(expectedMs) },
          'database queue too slow: request shed',
        );
        // Come back once the queue ahead has had time to drain.
        const retryAfter = Math.min(60, Math.max(1, Math.ceil(expectedMs / 1000)));
        return done(overloaded('The database is saturated; retry shortly.', retryAfter));
      }
      expectedWait.observe({ outcome: 'admitted' }, expectedMs / 1000);
      inFlight++;
      const since = performance.now();
      // 'close' comes once whatever the end: answered, failed, or the client gone mid-way.
      reply.raw.once('close', () => {
        inFlight--;
        ended++;
        const actualMs = performance.now() - since;
        actualWait.observe(actualMs / 1000);
        estimator.observe(rawMs, actualMs);
      });
    }
    done();
  });
});
