import { randomUUID } from 'node:crypto';
import type { Transaction } from '../infra/db/database.ts';
import { AppError, invalid } from '../infra/http/problems.ts';
import { type PaymentPurpose, paymentLedger } from './payment-ledger.ts';
import type { PaymentProvider } from './payment-provider.ts';

/** What moving money needs: the provider, and a log for the failures only a human can settle. */
export interface PaymentDeps {
  payments: PaymentProvider;
  log: { error(obj: unknown, msg: string): void };
}

export interface Charge {
  providerRef: string;
  amount: number;
  currency: string;
  brand?: string | undefined;
  last4?: string | undefined;
}

/** A client error before anything is attempted: a token the provider can never accept. */
export function assertUsableToken(deps: Pick<PaymentDeps, 'payments'>, token: string, path: string): void {
  if (!deps.payments.recognises(token))
    throw invalid(path, `"${token}" is not a payment token this provider accepts`);
}

/**
 * Charges a card inside the transaction `tx` and writes the ledger row with it. Money follows the
 * data: when this attempt does not commit (a later refusal, a lost race, a retry, a failed commit),
 * the charge is refunded, so "nothing is charged when the change fails" holds whatever fails.
 * A decline throws `402 payment_failed`, rolling the caller's transaction back.
 */
export async function chargeWithinTransaction(
  tx: Transaction,
  deps: PaymentDeps,
  charge: {
    reservationId: number;
    purpose: PaymentPurpose;
    amount: number;
    currency: string;
    token: string;
    /** Our reference at the provider: reservation code + purpose. */
    reference: string;
    /** The detail of the 402 on a decline. */
    declined?: (message: string, declineCode: string) => string;
    /** Where the token was in the request body (the 402's `errors[].path`). */
    tokenPath?: string;
  },
): Promise<Charge> {
  const { amount, currency, token, reference } = charge;
  const outcome = await deps.payments.charge({ amount, currency, token, reference });
  if (!outcome.ok) {
    const detail = charge.declined?.(outcome.message, outcome.declineCode);
    throw new AppError('payment_failed', detail ?? `${outcome.message} Nothing was booked or charged.`, {
      errors: [
        {
          path: charge.tokenPath ?? '/payment/token',
          message: outcome.message,
          declineCode: outcome.declineCode,
        },
      ],
    });
  }
  const made: Charge = {
    providerRef: outcome.providerRef,
    amount,
    currency,
    brand: outcome.brand,
    last4: outcome.last4,
  };
  tx.onEnd(async (committed) => {
    if (committed) return;
    try {
      await deps.payments.refund({
        providerRef: made.providerRef,
        amount,
        currency,
        reference: `${reference}/rollback`,
      });
    } catch (err) {
      // Needs a human: money was taken for something that does not exist.
      deps.log.error({ err, providerRef: made.providerRef, amount }, 'compensating refund failed');
    }
  });
  await paymentLedger.record(tx, {
    reservationId: charge.reservationId,
    kind: 'charge',
    purpose: charge.purpose,
    amount,
    currency,
    provider: deps.payments.name,
    providerRef: made.providerRef,
    brand: made.brand,
    last4: made.last4,
  });
  return made;
}

/**
 * Records a refund in the ledger inside `tx`; it reaches the provider only once `tx` has
 * committed (a refund for a change that did not happen would give away money).
 */
export async function refundWithinTransaction(
  tx: Transaction,
  deps: PaymentDeps,
  refund: {
    reservationId: number;
    purpose: PaymentPurpose;
    amount: number;
    currency: string;
    reference: string;
  },
): Promise<void> {
  const { amount, currency, reference } = refund;
  tx.onEnd(async (committed) => {
    if (!committed) return;
    try {
      await deps.payments.refund({ providerRef: null, amount, currency, reference });
    } catch (err) {
      deps.log.error({ err, amount, reference }, 'refund failed after commit; retry by hand');
    }
  });
  await paymentLedger.record(tx, {
    reservationId: refund.reservationId,
    kind: 'refund',
    purpose: refund.purpose,
    amount,
    currency,
    provider: deps.payments.name,
    providerRef: `refund_${randomUUID()}`,
  });
}
