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

export interface LoadSheddingOptions {
  db: Pick<Database, 'poolStats'>;
  /** Mean event-loop delay (ms) above which, sustained, requests are refused; 0 = off. */
  maxEventLoopDelayMs: number;
  /** Requests queued for a database connection at which requests are refused; 0 = off. */
  maxDbQueue: number;
  /** How often the event-loop delay is sampled. */
  sampleIntervalMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The last sampled mean event-loop delay and whether requests are being shed for it. */
    loadStatus(): { eventLoopDelayMs: number; overloaded: boolean };
  }
}

function overloaded(detail: string): AppError {
  return new AppError('service_unavailable', detail, {
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  });
}

/**
 * Load shedding: while the process is overloaded (its event loop runs late, sample after sample)
 * or the database pool has a long queue, new requests get a fast 503 `service_unavailable` with
 * `Retry-After` instead of queueing into a timeout and deepening the backlog.
 *
 * Sampling starts when the app is ready, so the work of starting (migrations and catalogue on the
 * embedded engine, which runs on the event loop) is never mistaken for overload.
 */
export const loadShedding = fp(async (app: FastifyInstance, opts: LoadSheddingOptions) => {
  let delayMs = 0;
  let lateSamples = 0;
  app.decorate('loadStatus', () => ({
    eventLoopDelayMs: delayMs,
    overloaded: lateSamples >= SUSTAINED_SAMPLES,
  }));

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

  const { db, maxDbQueue } = opts;
  app.addHook('onRequest', async (request) => {
    if (NEVER_SHED.has(request.routeOptions.url ?? '')) return;
    if (lateSamples >= SUSTAINED_SAMPLES) {
      request.log.warn({ eventLoopDelayMs: delayMs }, 'overloaded: request shed');
      throw overloaded('The service is overloaded; retry shortly.');
    }
    if (maxDbQueue > 0) {
      const { waiting } = db.poolStats();
      if (waiting >= maxDbQueue) {
        request.log.warn({ waiting }, 'database pool saturated: request shed');
        throw overloaded('The database is saturated; retry shortly.');
      }
    }
  });
});
