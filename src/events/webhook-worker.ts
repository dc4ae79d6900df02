import type { Logger } from 'pino';
import type { Encryptor } from '../infra/crypto/encryption.ts';
import type { Database } from '../infra/db/database.ts';
import { startClaimWorker } from '../infra/outbox/claim-worker.ts';
import { GIVE_UP_AFTER_UNITS, retryDelayUnits } from '../infra/outbox/retry-schedule.ts';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  deliveryRepository as repo,
} from './delivery.repository.ts';
import { webhookMetrics } from './webhook-metrics.ts';
import { secretContext } from './webhook-secret.ts';
import { sendWebhook } from './webhook-sender.ts';
import { WEBHOOK_CHANNEL } from './webhook-wake.ts';

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

/**
 * Delivers webhooks through the outbox loop of infra/outbox/claim-worker.ts: claims due deliveries
 * in batches (SKIP LOCKED plus a lease, see delivery.repository.ts), POSTs each outside any
 * transaction, and records the outcomes a batch per statement. Every process of a deployment runs
 * one; together they make each attempt exactly once.
 *
 * Not pg-boss nor graphile-worker: both want a `pg` connection (pool or connection string) and
 * install their own schema with their own migrations outside ours; graphile-worker needs Node 22,
 * pg-boss's bring-your-own `executeSql` is untested on PGlite. What we need is one table and one
 * claim query on both engines, filled by the statement that records the event.
 */
export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, logger } = options;
  // Longer than the longest attempt (the timeout bounds resolution and the request), so a live
  // worker's claim never runs out under it; a dead worker's row is claimed again after this.
  const leaseSeconds = (2 * options.timeoutMs + 5_000) / 1000;
  const giveUpAfter = GIVE_UP_AFTER_UNITS * options.retryBaseSeconds;
  const secrets = new Map<string, string>();

  function secretOf(delivery: ClaimedDelivery): string {
    // An endpoint's secret never changes: decrypted once per endpoint, not once per attempt.
    let secret = secrets.get(delivery.endpointId);
    if (secret === undefined) {
      if (secrets.size >= 1000) secrets.clear();
      secret = options.encryptor
        .decrypt(Buffer.from(delivery.secretEncrypted), secretContext(delivery.endpointId))
        .toString();
      secrets.set(delivery.endpointId, secret);
    }
    return secret;
  }

  async function attempt(delivery: ClaimedDelivery, signal: AbortSignal): Promise<AttemptOutcome | null> {
    const attemptedAt = new Date();
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
      secret: secretOf(delivery),
      timeoutMs: options.timeoutMs,
      allowPrivate: options.allowPrivate,
      signal,
    });
    if (signal.aborted && result.status === null) return null;
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
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
        },
        'webhook attempt failed',
      );
    }
    return {
      id: delivery.id,
      hotelId: delivery.event.hotelId,
      claim: delivery.claim,
      attempt: delivery.attempt,
      eventId: delivery.event.id,
      attemptedAt,
      ...result,
      retryAfterSeconds: ok ? null : retryDelayUnits(delivery.attempt) * options.retryBaseSeconds,
    };
  }

  return startClaimWorker<ClaimedDelivery, AttemptOutcome>({
    db,
    logger,
    name: 'webhook attempt',
    channel: WEBHOOK_CHANNEL,
    concurrency: options.concurrency,
    pollIntervalMs: options.pollIntervalMs,
    graceMs: options.timeoutMs,
    claim: (limit, claim) => repo.claim(db, limit, claim, leaseSeconds),
    run: attempt,
    async record(tx, outcomes) {
      const statuses = await repo.record(tx, outcomes, giveUpAfter);
      for (const status of statuses.values()) webhookMetrics.count(status === 'pending' ? 'retry' : status);
    },
    release: (delivery) => repo.release(db, delivery.id, delivery.claim),
  });
}
