import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../infra/db/database.ts';
import { type ClaimWorker, startClaimWorker } from '../infra/outbox/claim-worker.ts';
import { claimUnmatchedIntents, refundUnmatchedIntent } from './commands/refund-unmatched-intents.ts';
import { claimDueRefunds, retryRefund } from './commands/retry-refunds.ts';
import type { PaymentProvider } from './payment-provider.ts';
import type { PendingRefund } from './payments.repository.ts';
import type { UnmatchedIntent } from './stripe-intents.repository.ts';

export interface PaymentWorker {
  /**
   * One pass now, as the loop makes them: the due refunds, then (Stripe) the unmatched payments
   * past their grace, claimed and settled; it ends once the items the loop holds have ended too.
   * For tests, which drive the worker through it.
   */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** A claimed row to settle: a refund to try again, or a payment without a booking to refund. */
type PaymentItem = { kind: 'refund'; refund: PendingRefund } | { kind: 'unmatched'; intent: UnmatchedIntent };

/** Provider calls at once in one process. */
const CONCURRENCY = 4;
/** What one `runOnce` pass claims at most of each kind. */
const PASS_REFUNDS = 50;
const PASS_INTENTS = 20;
/** How long `stop` lets a provider call under way finish. */
const STOP_GRACE_MS = 10_000;

/**
 * Settles what could not be settled in a request, on the claim worker of `infra/outbox/` as
 * webhooks, messages and iCal imports are: every process runs it, each row is claimed by one of
 * them (a refund's lease, `claimDuePending`; an unmatched PaymentIntent's claim, `claimExpired`,
 * both SKIP LOCKED) and settled outside any transaction by its command: `retryRefund` (refunds the
 * provider did not make after their commit) and, with Stripe, `refundUnmatchedIntent` (payments
 * without a booking past their grace). Nothing notifies a row coming due (a retry's time, a grace
 * ending): the poll every PAYMENT_WORKER_INTERVAL_MS finds them. Each command records its own
 * outcome, so the worker has no `record`.
 */
export function startPaymentWorker(deps: {
  db: Database;
  payments: PaymentProvider;
  config: Config;
  logger: Logger;
  /** false: no loop, tests drive `runOnce` alone. */
  poll?: boolean;
}): PaymentWorker {
  const { db, payments, config, logger } = deps;
  const log = logger.child({ worker: 'payments' });
  const retry = { db, payments, log, retryBaseMs: config.refundRetryBaseSeconds * 1000 };
  const stripe = config.stripe;
  const unmatched = stripe && { db, payments, log, graceMs: stripe.unmatchedRefundAfterSeconds * 1000 };

  /** Up to `refunds` due refunds, then up to `intents(claimed)` unmatched payments. */
  async function claim(refunds: number, intents: (claimed: number) => number): Promise<PaymentItem[]> {
    const items: PaymentItem[] = (await claimDueRefunds(retry, refunds)).map((refund) => ({
      kind: 'refund',
      refund,
    }));
    if (unmatched && intents(items.length) > 0)
      for (const intent of await claimUnmatchedIntents(unmatched, intents(items.length)))
        items.push({ kind: 'unmatched', intent });
    return items;
  }

  const inFlight = new Set<Promise<void>>();
  function settle(item: PaymentItem): Promise<void> {
    const done = (
      item.kind === 'refund'
        ? retryRefund(retry, item.refund)
        : refundUnmatchedIntent(unmatched || { db, payments, log }, item.intent)
    )
      .catch((err) => log.warn({ err, item: item.kind }, 'payment worker: could not settle'))
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
    return done;
  }

  // The first claim comes one interval after start, as the periodic pass did: nothing here is
  // urgent, and a starting process's connections go to the outboxes and the requests first.
  let worker: ClaimWorker | null = null;
  const starting =
    deps.poll === false
      ? null
      : setTimeout(() => {
          worker = startClaimWorker<PaymentItem, true>({
            db,
            logger: log,
            name: 'payment',
            concurrency: CONCURRENCY,
            pollIntervalMs: config.paymentWorkerIntervalMs,
            graceMs: STOP_GRACE_MS,
            // Refunds first: payments without a booking take the slots left.
            claim: (limit) => claim(limit, (claimed) => limit - claimed),
            run: async (item) => {
              await settle(item);
              return true;
            },
            // Never called: `run` settles every item it is given. A killed process's refunds come
            // back when their lease ends.
            release: async () => {},
          });
        }, config.paymentWorkerIntervalMs);
  starting?.unref();

  return {
    async runOnce() {
      await Promise.all((await claim(PASS_REFUNDS, () => PASS_INTENTS)).map(settle));
      await Promise.all([...inFlight]);
    },
    async stop() {
      if (starting) clearTimeout(starting);
      await worker?.stop();
    },
  };
}
