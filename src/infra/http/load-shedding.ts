import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database.ts';
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

export interface LoadSheddingOptions {
  db: Pick<Database, 'poolStats'>;
  /** Mean event-loop delay (ms) above which, sustained, requests are refused; 0 = off. */
  maxEventLoopDelayMs: number;
  /**
   * Expected wait for database connections (ms) above which a new request is refused; 0 = off.
   * The wait is estimated, not measured after the fact: the queue ahead of the request × the recent
   * mean time a connection is held ÷ the pool size, times the connections a request uses in turn.
   */
  maxDbWaitMs: number;
  /** How often the event-loop delay is sampled. */
  sampleIntervalMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The last sampled mean event-loop delay and whether requests are being shed for it; the
     * expected wait for database connections of a request arriving now.
     */
    loadStatus(): { eventLoopDelayMs: number; overloaded: boolean; dbWaitMs: number };
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
  /** Connection checkouts per request served, recently (a request may use several in turn). */
  let checkoutsPerRequest = 1;
  /**
   * Requests admitted and not yet answered. In a burst they arrive faster than they reach the
   * pool's queue, so the queue alone would admit the whole burst before it looked long.
   */
  let inFlight = 0;
  const dbWaitMs = () => {
    const { waiting, max, meanHoldMs } = db.poolStats();
    // Checkouts ahead of a new request, drained `max` at a time: those queued, or those the
    // requests in flight will make, whichever is more; it waits that long once per checkout.
    const ahead = Math.max(waiting, inFlight * checkoutsPerRequest);
    return ((ahead + 1) * meanHoldMs * checkoutsPerRequest) / Math.max(1, max);
  };
  app.decorate('loadStatus', () => ({
    eventLoopDelayMs: delayMs,
    overloaded: lateSamples >= SUSTAINED_SAMPLES,
    dbWaitMs: dbWaitMs(),
  }));

  if (maxDbWaitMs > 0) {
    let served = 0;
    let last = { served: 0, checkouts: db.poolStats().checkouts };
    app.addHook('onResponse', async () => {
      served++;
    });
    const timer = setInterval(() => {
      const checkouts = db.poolStats().checkouts;
      const requests = served - last.served;
      // Background work (housekeeping, catalogue refresh) also checks out connections: estimate
      // only from a window with enough requests that they dominate.
      if (requests >= USE_SAMPLE_MIN_REQUESTS) {
        const perRequest = Math.min(10, Math.max(1, (checkouts - last.checkouts) / requests));
        checkoutsPerRequest += 0.5 * (perRequest - checkoutsPerRequest);
      }
      last = { served, checkouts };
    }, USE_SAMPLE_MS);
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

  app.addHook('onRequest', async (request, reply) => {
    if (NEVER_SHED.has(request.routeOptions.url ?? '')) return;
    if (lateSamples >= SUSTAINED_SAMPLES) {
      request.log.warn({ eventLoopDelayMs: delayMs }, 'overloaded: request shed');
      throw overloaded('The service is overloaded; retry shortly.');
    }
    if (maxDbWaitMs > 0) {
      const waitMs = dbWaitMs();
      if (waitMs > maxDbWaitMs) {
        request.log.warn(
          { waiting: db.poolStats().waiting, waitMs: Math.round(waitMs) },
          'database queue too slow: request shed',
        );
        // Come back once the queue ahead has had time to drain.
        const retryAfter = Math.min(60, Math.max(1, Math.ceil(waitMs / 1000)));
        throw overloaded('The database is saturated; retry shortly.', retryAfter);
      }
      // 'close' comes once whatever the end: answered, failed, or the client gone mid-way.
      inFlight++;
      reply.raw.once('close', () => {
        inFlight--;
      });
    }
  });
});
