import type { Logger } from 'pino';
import type { Database } from '../../infra/db/database.ts';
import { recordPaymentEvent } from '../payment-events.ts';
import { type PaymentProvider, RefundRefused } from '../payment-provider.ts';
import { stripeIntents, type UnmatchedIntent } from '../stripe-intents.repository.ts';

/** What refunding unmatched payments needs. */
export interface UnmatchedRefundDeps {
  db: Database;
  payments: PaymentProvider;
  log: Logger;
  graceMs: number;
}

/**
 * Stripe payments that took money without a booking (a crash before our commit, 3-D Secure
 * completed but never sent back) that no retry claimed within `graceMs`, up to `limit`, claimed for
 * this process (`claimExpired`, SKIP LOCKED). Only PaymentIntents Innkeep recorded creating, never
 * another integration's on the same Stripe account.
 */
export function claimUnmatchedIntents(
  deps: Pick<UnmatchedRefundDeps, 'db' | 'graceMs'>,
  limit: number,
): Promise<UnmatchedIntent[]> {
  return deps.db.transaction((tx) =>
    stripeIntents.claimExpired(tx, new Date(Date.now() - deps.graceMs), limit),
  );
}

/** One claimed payment without a booking refunded (`payment.voided`); a failure opens it again. */
export async function refundUnmatchedIntent(
  deps: Omit<UnmatchedRefundDeps, 'graceMs'>,
  intent: UnmatchedIntent,
): Promise<void> {
  const { db, payments, log } = deps;
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
      return;
    }
    await stripeIntents.reopen(db, intent.intentId, (err as Error).message);
    log.error(
      { intent: intent.intentId, reason: (err as Error).message },
      'refund of a payment without a booking failed',
    );
  }
}
