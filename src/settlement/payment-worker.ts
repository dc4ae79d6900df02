import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../infra/db/database.ts';
import { paymentLedger } from '../payments/payment-ledger.ts';
import { type PaymentProvider, RefundRefused } from '../payments/payment-provider.ts';
import { attemptRefund } from '../payments/refund-attempts.ts';
import { stripeIntents } from '../payments/stripe-intents.repository.ts';
import { reservationRepository as reservations } from '../reservations/reservation.repository.ts';
import { recordPaymentEvent } from './payment-events.ts';

/** Attempts before a refund that keeps failing is handed to a human (about a day with the default base). */
const MAX_REFUND_ATTEMPTS = 7;

export interface PaymentWorker {
  /** One pass: due refunds, then (Stripe) unmatched payments past their grace. For tests too. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Settles what could not be settled in a request: refunds the provider did not make after the
 * commit are retried with backoff, and one refused for good (or failing too long) becomes
 * `failed` with a `payment.refund_failed` event, shown at the desk. With Stripe, payments that took
 * money without a booking (a crash before our commit, 3-D Secure completed but never sent back)
 * are refunded once no retry has claimed them in time (`payment.voided`): only PaymentIntents
 * Innkeep recorded creating, never another integration's on the same Stripe account. Safe on every process:
 * each row is claimed before it is attempted.
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

  async function refundFailed(id: number, error: string): Promise<void> {
    await db.transaction(async (tx) => {
      const { rows } = await tx.query<{
        reservationId: number;
        amount: number;
        purpose: string;
        chargeRef: string | null;
      }>(
        `UPDATE payments SET status = 'failed', last_error = $2, next_attempt_at = NULL
         WHERE id = $1 AND status = 'pending'
         RETURNING reservation_id AS "reservationId", amount, purpose, charge_ref AS "chargeRef"`,
        [id, error],
      );
      const refund = rows[0];
      if (!refund) return;
      const row = await reservations.findById(tx, refund.reservationId);
      await recordPaymentEvent(tx, 'payment.refund_failed', row.hotelId, row, {
        amount: Number(refund.amount),
        currency: row.currency,
        kind: 'refund',
        purpose: refund.purpose,
        providerRef: refund.chargeRef,
        reason: error,
      });
    });
    log.error({ refund: id, reason: error }, 'refund failed for good; the hotel must settle it');
  }

  async function refunds(): Promise<void> {
    for (const id of await paymentLedger.duePending(db, new Date(), 50)) {
      const attempt = await attemptRefund(db, { payments, log }, id, `refund/${id}`, { retryBaseMs });
      if (
        attempt.outcome === 'refused' ||
        (attempt.outcome === 'retry' && attempt.attempts >= MAX_REFUND_ATTEMPTS)
      )
        await refundFailed(id, attempt.error);
    }
  }

  async function unmatched(): Promise<void> {
    if (!config.stripe) return;
    const graceMs = config.stripe.unmatchedRefundAfterSeconds * 1000;
    const claimed = await db.transaction((tx) =>
      stripeIntents.claimExpired(tx, new Date(Date.now() - graceMs), 20),
    );
    for (const intent of claimed) {
      try {
        await payments.refund({
          providerRef: intent.intentId,
          amount: intent.amount,
          currency: intent.currency,
          reference: `${intent.reference}/void`,
          idempotencyKey: `innkeep:void:${intent.intentId}`,
        });
        if (intent.hotelId) {
          const hotelId = intent.hotelId;
          await db.transaction((tx) =>
            recordPaymentEvent(tx, 'payment.voided', hotelId, null, {
              amount: intent.amount,
              currency: intent.currency,
              kind: 'refund',
              purpose: 'unmatched',
              providerRef: intent.intentId,
              reference: intent.reference,
            }),
          );
        }
        log.warn({ intent: intent.intentId }, 'a payment without a booking was refunded');
      } catch (err) {
        // Refused for good (refunded already, from Stripe's dashboard): settled, not retried.
        if (err instanceof RefundRefused) {
          await stripeIntents.refused(db, intent.intentId, err.message);
          log.error(
            { intent: intent.intentId, reason: err.message },
            'refund of a payment without a booking refused',
          );
          continue;
        }
        await stripeIntents.reopen(db, intent.intentId, (err as Error).message);
        log.error(
          { intent: intent.intentId, reason: (err as Error).message },
          'refund of a payment without a booking failed',
        );
      }
    }
  }

  // A call while a pass runs waits for a pass that starts after it (that pass may have read the
  // due rows before the caller's change): one follow-up at most, shared by every such caller.
  let running: Promise<void> | null = null;
  let followUp: Promise<void> | null = null;
  const pass = async () => {
    try {
      await refunds();
      await unmatched();
    } catch (err) {
      log.warn({ err }, 'payment worker pass failed');
    }
  };
  const runOnce = (): Promise<void> => {
    if (!running) {
      running = pass().finally(() => {
        running = null;
      });
      return running;
    }
    followUp ??= running.then(() => {
      followUp = null;
      return runOnce();
    });
    return followUp;
  };
  const timer =
    deps.poll === false ? null : setInterval(() => void runOnce(), config.paymentWorkerIntervalMs);
  timer?.unref();
  return {
    runOnce,
    async stop() {
      if (timer) clearInterval(timer);
      await (followUp ?? running);
    },
  };
}
