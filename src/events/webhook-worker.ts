import type { Logger } from 'pino';
import type { Encryptor } from '../infra/crypto/encryption.ts';
import { randomToken } from '../infra/crypto/tokens.ts';
import type { Database } from '../infra/db/database.ts';
import { type ClaimedDelivery, deliveryRepository as repo } from './delivery.repository.ts';
import { secretContext } from './webhook-endpoints.service.ts';
import { webhookMetrics } from './webhook-metrics.ts';
import { sendWebhook } from './webhook-sender.ts';

/**
 * The retry schedule of API.md 8.2 in units of `WEBHOOK_RETRY_BASE_SECONDS` (60 by default, so these
 * are minutes): 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, then every 12 h until 3 days have passed.
 */
const RETRY_STEPS = [1, 5, 30, 120, 300, 600];
const RETRY_EVERY = 720;
const GIVE_UP_AFTER = 3 * 24 * 60;

/** The delay before the attempt after the `attempt`-th one failed, in schedule units. */
export function retryDelayUnits(attempt: number): number {
  return RETRY_STEPS[attempt - 1] ?? RETRY_EVERY;
}

export interface WebhookWorkerOptions {
  db: Database;
  encryptor: Encryptor;
  logger: Logger;
  retryBaseSeconds: number;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Attempts in flight at once in this process: one slow endpoint takes one slot, not the worker. */
  concurrency: number;
  pollIntervalMs: number;
}

export interface WebhookWorker {
  /** Stops claiming; waits for attempts in flight up to `graceMs`, then aborts and hands the rest back. */
  stop(graceMs?: number): Promise<void>;
}

const FANOUT_BATCH = 500;

/**
 * Delivers webhooks: fans the event feed out into deliveries, claims due ones (SKIP LOCKED plus a
 * lease, see delivery.repository.ts) and POSTs them, each attempt outside any transaction. Every
 * process of a deployment runs one; together they make each attempt exactly once.
 *
 * Not pg-boss nor graphile-worker: both want a `pg` connection (pool or connection string) and
 * install their own schema with their own migrations outside ours; graphile-worker needs Node 22
 * and LISTEN/NOTIFY, pg-boss's bring-your-own `executeSql` is untested on PGlite. What we need is
 * one table and one claim query on both engines, fed from our event feed.
 */
export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, logger } = options;
  // Longer than the longest attempt (the timeout bounds resolution and the request), so a live
  // worker's claim never runs out under it; a dead worker's row is claimed again after this.
  const leaseSeconds = (2 * options.timeoutMs + 5_000) / 1000;
  const inFlight = new Map<number, { delivery: ClaimedDelivery; done: Promise<void> }>();
  const abort = new AbortController();
  let stopped = false;
  let ticking: Promise<void> | null = null;

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = new Date();
    const secret = options.encryptor
      .decrypt(Buffer.from(delivery.secretEncrypted), secretContext(delivery.endpointId))
      .toString();
    const body = JSON.stringify({
      id: delivery.event.id,
      type: delivery.event.type,
      createdAt: delivery.event.createdAt.toISOString(),
      hotelId: delivery.event.hotelId,
      data: delivery.event.data,
    });
    const result = await sendWebhook({
      url: delivery.url,
      eventId: delivery.event.id,
      body,
      secret,
      timeoutMs: options.timeoutMs,
      allowPrivate: options.allowPrivate,
      signal: abort.signal,
    });
    if (abort.signal.aborted && result.status === null) {
      await repo.release(db, delivery.id, delivery.claim);
      return;
    }
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const retryAfter = ok ? null : retryDelayUnits(delivery.attempt) * options.retryBaseSeconds;
    const outcome = await db.transaction((tx) =>
      repo.finish(
        tx,
        { id: delivery.id, claim: delivery.claim, attempt: delivery.attempt, eventId: delivery.event.id },
        { attemptedAt, ...result },
        retryAfter,
        GIVE_UP_AFTER * options.retryBaseSeconds,
      ),
    );
    if (outcome === null) return;
    webhookMetrics.count(outcome === 'pending' ? 'retry' : outcome);
    if (!ok) {
      // Never the payload: it may name guests.
      logger.warn(
        {
          endpoint: delivery.endpointId,
          event: delivery.event.id,
          attempt: delivery.attempt,
          status: result.status,
          error: result.error,
          durationMs: result.durationMs,
          willRetry: outcome === 'pending',
        },
        'webhook attempt failed',
      );
    }
  }

  async function tick(): Promise<void> {
    while ((await db.transaction((tx) => repo.fanOut(tx, FANOUT_BATCH))) === FANOUT_BATCH && !stopped) {}
    const free = options.concurrency - inFlight.size;
    if (free <= 0 || stopped) return;
    const claimed = await repo.claim(db, free, randomToken('clm_', 10), leaseSeconds);
    for (const delivery of claimed) {
      const done = attempt(delivery)
        .catch((err) => logger.warn({ err, endpoint: delivery.endpointId }, 'webhook attempt not recorded'))
        .finally(() => {
          inFlight.delete(delivery.id);
          // A free slot with more due: look again at once rather than after the interval.
          if (!stopped) schedule(0);
        });
      inFlight.set(delivery.id, { delivery, done });
    }
  }

  let timer: NodeJS.Timeout | null = null;
  function schedule(delayMs: number) {
    if (stopped || ticking) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, delayMs);
    timer.unref();
  }
  function run() {
    timer = null;
    if (ticking || stopped) return;
    ticking = tick()
      .catch((err) => logger.warn({ err }, 'webhook worker: poll failed; retrying'))
      .finally(() => {
        ticking = null;
        schedule(options.pollIntervalMs);
      });
  }
  schedule(0);

  return {
    async stop(graceMs = options.timeoutMs) {
      stopped = true;
      if (timer) clearTimeout(timer);
      await ticking;
      const all = Promise.all([...inFlight.values()].map((f) => f.done));
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, graceMs);
      });
      await Promise.race([all, graceOver]);
      clearTimeout(graceTimer);
      if (inFlight.size > 0) {
        abort.abort();
        await all;
      }
    },
  };
}
