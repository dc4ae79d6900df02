import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { ChargeRequest, ChargeResult } from './payment-provider.ts';
import { fromStripeAmount } from './stripe-amounts.ts';

/**
 * What our PaymentIntents carry and what one says back: the metadata keys, the idempotency key of a
 * charge, and an intent's state as our answer. Shared by the provider (charges, cards on file) and
 * the Stripe events it settles later.
 */

type Intent = Stripe.PaymentIntent;

/** The metadata keys our PaymentIntents carry: what they pay for, checked when one comes back as a token. */
export const STRIPE_METADATA = {
  basis: 'innkeep_basis',
  reference: 'innkeep_reference',
  hotel: 'innkeep_hotel',
};

/**
 * The Stripe idempotency key of a charge: what it pays for, how much, and with which card. A
 * retried request, a crash before our commit, or two processes ask Stripe the same question and get
 * the same PaymentIntent back, never a second charge; another card after a decline is a new one.
 */
export function chargeIdempotencyKey(request: ChargeRequest): string {
  const basis = request.idempotencyBasis ?? request.reference;
  const digest = createHash('sha256')
    .update(JSON.stringify([basis, request.amount, request.currency, request.token]))
    .digest('base64url');
  return `innkeep:charge:${digest}`;
}

function cardOf(intent: Intent): { brand?: string; last4?: string } {
  const charge = intent.latest_charge;
  const card = typeof charge === 'object' && charge ? charge.payment_method_details?.card : undefined;
  return card
    ? ({ brand: card.brand ?? undefined, last4: card.last4 ?? undefined } as {
        brand?: string;
        last4?: string;
      })
    : {};
}

function refundedOf(intent: Intent): number {
  const charge = intent.latest_charge;
  return typeof charge === 'object' && charge ? charge.amount_refunded : 0;
}

/** A PaymentIntent's state as our answer: paid, the guest's action needed, or declined. */
export function outcomeOf(intent: Intent): ChargeResult {
  if (intent.status === 'succeeded') {
    if (refundedOf(intent) > 0)
      return {
        ok: false,
        declineCode: 'payment_refunded',
        message: 'This payment was refunded; please pay again.',
      };
    return { ok: true, providerRef: intent.id, ...cardOf(intent) };
  }
  if (intent.status === 'requires_action' && intent.client_secret) {
    return {
      ok: false,
      declineCode: 'authentication_required',
      message: 'The card issuer asks the guest to confirm this payment (3-D Secure).',
      nextAction: { type: 'stripe', clientSecret: intent.client_secret },
    };
  }
  const failure = intent.last_payment_error;
  return {
    ok: false,
    declineCode: failure?.decline_code ?? failure?.code ?? `payment_${intent.status}`,
    message: failure?.message ?? `The payment is ${intent.status.replaceAll('_', ' ')}.`,
  };
}

/** The card a PaymentIntent kept for later (`setup_future_usage`): its PaymentMethod and Customer. */
export function savedCardOf(intent: Intent, token: string | null) {
  const method =
    typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
  const customer = typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null);
  return { token: method ?? token ?? '', customer };
}

/** Our amount of a Stripe object (a charge, a dispute). */
export function ourAmount(amount: number, currency: string): number {
  return fromStripeAmount(amount, currency);
}
