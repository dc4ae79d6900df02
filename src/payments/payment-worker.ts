import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../infra/db/database.ts';
import { startPeriodicJob } from '../infra/jobs/periodic-job.ts';
import { refundUnmatchedIntents } from './commands/refund-unmatched-intents.ts';
import { retryDueRefunds } from './commands/retry-refunds.ts';
import type { PaymentProvider } from './payment-provider.ts';

export interface PaymentWorker {
  /** One pass: due refunds, then (Stripe) unmatched payments past their grace. For tests too. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Settles what could not be settled in a request, every PAYMENT_WORKER_INTERVAL_MS on the
 * periodic-job primitive: refunds to retry (`retryDueRefunds`), then, with Stripe, payments without
 * a booking past their grace (`refundUnmatchedIntents`). Safe on every process: each row is claimed
 * (a lease on the row) before it is attempted, so each refund is made once.
 */
export function startPaymentWorker(deps: {
  db: Database;
  payments: PaymentProvider;
  config: Config;
  logger: Logger;
  /** Tests drive `runOnce` themselves. */
  poll?: boolean;
}): PaymentWorker {
  const { db, payments, config, logger } = deps;
  const log = logger.child({ worker: 'payments' });
  const retryBaseMs = config.refundRetryBaseSeconds * 1000;
  const stripe = config.stripe;
  const job = startPeriodicJob({
    name: 'payment worker pass',
    intervalMs: config.paymentWorkerIntervalMs,
    scheduled: deps.poll !== false,
    log,
    async run() {
      await retryDueRefunds({ db, payments, log, retryBaseMs });
      if (stripe)
        await refundUnmatchedIntents({
          db,
          payments,
          log,
          graceMs: stripe.unmatchedRefundAfterSeconds * 1000,
        });
    },
  });
  return { runOnce: job.runNow, stop: job.stop };
}
