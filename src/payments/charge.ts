import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from '../infra/db/database.ts';
import { AppError, invalid } from '../infra/http/problems.ts';
import type { ChargeRequest, PaymentProvider, SavedCard } from './payment-provider.ts';
import { type PaymentPurpose, paymentLedger } from './payments.repository.ts';
import { attemptRefund } from './refund-attempts.ts';

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
  savedCard?: SavedCard | undefined;
}

/** A client error before anything is attempted: a token the provider can never accept. */
export function assertUsableToken(deps: Pick<PaymentDeps, 'payments'>, token: string, path: string): void {
  if (!deps.payments.recognises(token))
    throw invalid(path, `"${token}" is not a payment token this provider accepts`);
}

/**
 * Charges a card inside the transaction `tx` and writes the ledger row with it. Money follows the
 * data: when this attempt does not commit (a later refusal, a lost race, a retry, a failed commit),
 * the charge is given back (refunded at once, or by a provider with idempotent charges kept for the
 * retry that reuses it: `PaymentProvider.abandon`), so "nothing is charged when the change fails"
 * holds whatever fails. A decline throws `402 payment_failed`, rolling the caller's transaction
 * back; one that needs the guest (3-D Secure) carries `nextAction`.
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
    /** What the payment is for, stable across retries (see ChargeRequest.idempotencyBasis). */
    idempotencyBasis?: string;
    hotelId?: string;
    /** The detail of the 402 on a decline. */
    declined?: (message: string, declineCode: string) => string;
    /** Where the token was in the request body (the 402's `errors[].path`). */
    tokenPath?: string;
    /** Keep the card for later charges (ChargeRequest.saveCard). */
    saveCard?: boolean;
    /** Charge a card on file without the guest (ChargeRequest.offSession). */
    offSession?: { customer: string | null };
  },
): Promise<Charge> {
  const { amount, currency, token, reference } = charge;
  const request: ChargeRequest = {
    amount,
    currency,
    token,
    reference,
    idempotencyBasis: charge.idempotencyBasis ?? reference,
    ...(charge.hotelId ? { hotelId: charge.hotelId } : {}),
    afterEnd: (work) => tx.onEnd(() => work()),
    ...(charge.saveCard ? { saveCard: true } : {}),
    ...(charge.offSession ? { offSession: charge.offSession } : {}),
  };
  const outcome = await deps.payments.charge(request);
  const decline = (message: string, declineCode: string, members?: Record<string, unknown>) => {
    const detail = charge.declined?.(message, declineCode);
    return new AppError('payment_failed', detail ?? `${message} Nothing was booked or charged.`, {
      errors: [{ path: charge.tokenPath ?? '/payment/token', message, declineCode }],
      ...(members ? { members } : {}),
    });
  };
  if (!outcome.ok) {
    throw decline(
      outcome.message,
      outcome.declineCode,
      outcome.nextAction ? { nextAction: outcome.nextAction } : undefined,
    );
  }
  // A payment sent back as a token (a PaymentIntent after 3-D Secure) pays for one thing only. Only
  // a provider whose charges outlive a request (it claims them) can hand back one already recorded;
  // the test provider's references are new every time, so its charges skip the look-up.
  if (deps.payments.claim && (await paymentLedger.chargeOwner(tx, deps.payments.name, outcome.providerRef))) {
    throw decline('This payment was already used for another reservation or change.', 'payment_already_used');
  }
  const claimed = deps.payments.claim
    ? await deps.payments.claim(tx, outcome.providerRef, request)
    : 'claimed';
  if (claimed === 'refunded')
    throw decline('This payment was cancelled and refunded; please pay again.', 'payment_refunded');
  if (claimed === 'not_ours') throw decline('This payment was made for something else.', 'payment_mismatch');
  const made: Charge = {
    providerRef: outcome.providerRef,
    amount,
    currency,
    brand: outcome.brand,
    last4: outcome.last4,
    savedCard: outcome.savedCard,
  };
  tx.onEnd(async (committed) => {
    if (committed) return;
    try {
      if (deps.payments.abandon) {
        await deps.payments.abandon({
          providerRef: made.providerRef,
          amount,
          currency,
          reference,
          hotelId: charge.hotelId ?? null,
        });
        return;
      }
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
    hotelId: charge.hotelId,
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
 * Records a refund in the ledger inside `tx`, `pending`, against the reservation's charges (newest
 * first); it reaches the provider only once `tx` has committed (a refund for a change that did not
 * happen would give away money). A refund that fails then stays `pending` for the payment worker,
 * which retries it with backoff and, when the provider refuses it for good, marks it `failed` and
 * tells the hotel (`payment.refund_failed`): never lost.
 */
export async function refundWithinTransaction(
  tx: Transaction,
  deps: PaymentDeps & { db: Database },
  refund: {
    reservationId: number;
    purpose: PaymentPurpose;
    amount: number;
    currency: string;
    reference: string;
  },
): Promise<void> {
  const { amount, reference } = refund;
  let left = amount;
  const ids: number[] = [];
  for (const charge of await paymentLedger.refundableCharges(tx, refund.reservationId)) {
    if (left === 0) break;
    const part = Math.min(left, charge.left);
    left -= part;
    ids.push(await pendingRefund(tx, deps, refund, part, charge.providerRef));
  }
  // Money paid outside the ledger (none today): the provider is asked without a charge to name.
  if (left > 0) ids.push(await pendingRefund(tx, deps, refund, left, null));
  tx.onEnd(async (committed) => {
    if (!committed) return;
    for (const id of ids) await attemptRefund(deps.db, deps, id, `${reference}`);
  });
}

function pendingRefund(
  tx: Transaction,
  deps: PaymentDeps,
  refund: { reservationId: number; purpose: PaymentPurpose; currency: string },
  amount: number,
  chargeRef: string | null,
): Promise<number> {
  return paymentLedger.record(tx, {
    reservationId: refund.reservationId,
    kind: 'refund',
    purpose: refund.purpose,
    amount,
    currency: refund.currency,
    provider: deps.payments.name,
    // The provider's own reference replaces this once the refund is made.
    providerRef: `refund_${randomUUID()}`,
    status: 'pending',
    chargeRef,
  });
}
