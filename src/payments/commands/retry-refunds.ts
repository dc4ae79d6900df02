import type { Logger } from 'pino';
import type { Database } from '../../infra/db/database.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import { recordPaymentEvent } from '../payment-events.ts';
import type { PaymentProvider } from '../payment-provider.ts';
import { type PendingRefund, paymentLedger } from '../payments.repository.ts';
import { ATTEMPT_LEASE_MS, attemptClaimedRefund } from '../refund-attempts.ts';

/** Attempts before a refund that keeps failing is handed to a human (about a day with the default base). */
const MAX_REFUND_ATTEMPTS = 7;

/** What retrying refunds needs. */
export interface RefundRetryDeps {
  db: Database;
  payments: PaymentProvider;
  log: Logger;
  retryBaseMs: number;
}

/**
 * The refunds the provider did not make after their commit whose next attempt is due, up to
 * `limit`, claimed for this process (`claimDuePending`: SKIP LOCKED and a lease), for the payment
 * worker to attempt one by one.
 */
export function claimDueRefunds(deps: Pick<RefundRetryDeps, 'db'>, limit: number): Promise<PendingRefund[]> {
  return paymentLedger.claimDuePending(deps.db, new Date(), limit, ATTEMPT_LEASE_MS);
}

/**
 * One claimed refund attempted again, with backoff; one refused for good (or failing too long)
 * becomes `failed` with a `payment.refund_failed` event, shown at the desk.
 */
export async function retryRefund(deps: RefundRetryDeps, refund: PendingRefund): Promise<void> {
  const { db, payments, log, retryBaseMs } = deps;
  const attempt = await attemptClaimedRefund(db, { payments, log }, refund, `refund/${refund.id}`, {
    retryBaseMs,
  });
  if (
    attempt.outcome === 'refused' ||
    (attempt.outcome === 'retry' && attempt.attempts >= MAX_REFUND_ATTEMPTS)
  )
    await refundFailed(db, log, refund.id, attempt.error);
}

/** A pending refund given up: `failed`, with its event, in one transaction; the hotel settles it. */
async function refundFailed(db: Database, log: Logger, id: number, error: string): Promise<void> {
  await db.transaction(async (tx) => {
    const refund = await paymentLedger.failPending(tx, id, error);
    if (!refund) return;
    const row = await reservations.findById(tx, refund.reservationId);
    await recordPaymentEvent(tx, 'payment.refund_failed', row.hotelId, row, {
      amount: refund.amount,
      currency: row.currency,
      kind: 'refund',
      purpose: refund.purpose,
      providerRef: refund.chargeRef,
      reason: error,
    });
  });
  log.error({ refund: id, reason: error }, 'refund failed for good; the hotel must settle it');
}
