import type { Logger } from 'pino';
import type { Encryptor } from '../infra/crypto/encryption.ts';
import { randomToken } from '../infra/crypto/tokens.ts';
import type { Database } from '../infra/db/database.ts';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  deliveryRepository as repo,
} from './delivery.repository.ts';
import { secretContext } from './webhook-endpoints.service.ts';
import { webhookMetrics } from './webhook-metrics.ts';
import { sendWebhook } from './webhook-sender.ts';
import { onDeliveriesDue } from './webhook-wake.ts';

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

/**
 * How long a wake-up waits before claiming, so that the deliveries of bookings committing together
 * are claimed (and their outcomes recorded) in one statement rather than one each.
 */
const GATHER_MS = 10;

/**
 * Delivers webhooks: claims due deliveries in batches (SKIP LOCKED plus a lease, see
 * delivery.repository.ts), POSTs each outside any transaction, and records the outcomes of the
 * attempts that have ended, a batch per statement. Every process of a deployment runs one; together
 * they make each attempt exactly once. Woken after a commit that made deliveries (in this process
 * directly, in the others by notification, see webhook-wake.ts); the poll every `pollIntervalMs`
 * finds retries coming due and whatever a lost notification left.
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
  const giveUpAfter = GIVE_UP_AFTER * options.retryBaseSeconds;
  const attempts = new Set<Promise<void>>();
  /** Claimed and not yet recorded (or released): the slots of `concurrency` in use. */
  let held = 0;
  /** The last claim filled every free slot: more may be due once slots free. */
  let backlog = false;
  /** Attempts waiting for their answer. */
  let sending = 0;
  const ended: AttemptOutcome[] = [];
  let recording: Promise<void> | null = null;
  let claiming: Promise<void> | null = null;
  let again = false;
  let gather: NodeJS.Timeout | null = null;
  let flush: NodeJS.Timeout | null = null;
  const abort = new AbortController();
  const secrets = new Map<string, string>();
  let stopped = false;

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

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = new Date();
    const body = JSON.stringify({
      id: delivery.event.id,
      type: delivery.event.type,
      createdAt: delivery.event.createdAt.toISOString(),
      hotelId: delivery.event.hotelId,
      data: delivery.event.data,
    });
    sending++;
    const result = await sendWebhook({
      url: delivery.url,
      eventId: delivery.event.id,
      body,
      secret: secretOf(delivery),
      timeoutMs: options.timeoutMs,
      allowPrivate: options.allowPrivate,
      signal: abort.signal,
    }).finally(() => sending--);
    if (abort.signal.aborted && result.status === null) {
      await repo.release(db, delivery.id, delivery.claim).finally(() => held--);
      return;
    }
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    ended.push({
      id: delivery.id,
      claim: delivery.claim,
      attempt: delivery.attempt,
      eventId: delivery.event.id,
      attemptedAt,
      ...result,
      retryAfterSeconds: ok ? null : retryDelayUnits(delivery.attempt) * options.retryBaseSeconds,
    });
    record();
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
  }

  /**
   * Records the attempts that have ended, a batch at a time: those ending within GATHER_MS of the
   * first, or while the previous batch is being recorded, go together.
   */
  function record(): void {
    if (recording || ended.length === 0) return;
    if (stopped || sending === 0) {
      // No other answer to wait for (or shutting down): record now.
      if (flush) clearTimeout(flush);
      flush = null;
      recordBatch();
      return;
    }
    flush ??= setTimeout(() => {
      flush = null;
      recordBatch();
    }, GATHER_MS);
  }

  function recordBatch(): void {
    const batch = ended.splice(0);
    recording = db
      .transaction(async (tx) => {
        // A recorded outcome lost in a server crash only means the attempt is made again once its
        // lease ends (at least once): the worker need not wait for the WAL flush.
        await tx.query('SET LOCAL synchronous_commit = off');
        return repo.record(tx, batch, giveUpAfter);
      })
      .then((statuses) => {
        for (const status of statuses.values()) webhookMetrics.count(status === 'pending' ? 'retry' : status);
      })
      .catch((err) => logger.warn({ err, attempts: batch.length }, 'webhook attempts not recorded'))
      .finally(() => {
        held -= batch.length;
        recording = null;
        record();
        if (backlog) wake(true);
      });
  }

  async function claimDue(): Promise<void> {
    do {
      again = false;
      const free = options.concurrency - held;
      if (free <= 0 || stopped) return;
      const claimed = await repo.claim(db, free, randomToken('clm_', 10), leaseSeconds);
      backlog = claimed.length === free;
      held += claimed.length;
      for (const delivery of claimed) {
        const done: Promise<void> = attempt(delivery)
          .catch((err) =>
            logger.warn({ err, endpoint: delivery.endpointId }, 'webhook attempt could not run'),
          )
          .finally(() => attempts.delete(done));
        attempts.add(done);
      }
    } while (again && !stopped);
  }

  /**
   * Claims soon (after GATHER_MS; at once when the last claim left more due), or once more after
   * the claim under way.
   */
  function wake(now = false): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    gather ??= setTimeout(
      () => {
        gather = null;
        claiming = claimDue()
          .catch((err) => logger.warn({ err }, 'webhook worker: claim failed; retrying'))
          .finally(() => {
            claiming = null;
          });
      },
      now ? 0 : GATHER_MS,
    );
  }

  const unsubscribe = onDeliveriesDue(db, () => wake());
  const poll = setInterval(() => wake(), options.pollIntervalMs);
  poll.unref();
  wake();

  return {
    async stop(graceMs = options.timeoutMs) {
      stopped = true;
      unsubscribe();
      clearInterval(poll);
      if (gather) clearTimeout(gather);
      await claiming;
      const all = () => Promise.all([...attempts]);
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, graceMs);
      });
      await Promise.race([all(), graceOver]);
      clearTimeout(graceTimer);
      if (attempts.size > 0) {
        abort.abort();
        await all();
      }
      record();
      while (recording) await recording;
    },
  };
}
