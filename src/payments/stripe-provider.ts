import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { Database } from '../infra/db/database.ts';
import {
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
  RefundRefused,
} from './payment-provider.ts';
import { toStripeAmount } from './stripe-amounts.ts';
import { isGuestRefusal, isStripeError, isTransient, stripeUnavailable } from './stripe-errors.ts';
import { chargeIdempotencyKey, outcomeOf, STRIPE_METADATA, savedCardOf } from './stripe-intent-outcome.ts';
import { stripeIntents } from './stripe-intents.repository.ts';

type Intent = Stripe.PaymentIntent;

/**
 * PAYMENT_PROVIDER=stripe (API.md section 4): charges are PaymentIntents created and confirmed
 * with the guest's PaymentMethod (`pm_…`), or, after 3-D Secure, the PaymentIntent itself (`pi_…`)
 * checked to be ours, for this payment, succeeded and unused. A charge whose transaction does not
 * commit is kept for its retry (same idempotency key, same PaymentIntent) and refunded by the
 * payment worker if no retry records it in time.
 */
export function createStripePaymentProvider(deps: {
  stripe: Stripe;
  db: Database;
  log: { warn(obj: unknown, msg: string): void };
}): PaymentProvider {
  const { stripe, db } = deps;

  /** Any Stripe error but a decline the caller reads itself becomes our `503` (stripe-errors.ts). */
  async function withStripe<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw isStripeError(err) ? stripeUnavailable(err) : err;
    }
  }

  /**
   * Innkeep's record of the PaymentIntent this request asked for (null: the answer was lost), once
   * the caller's transaction has ended: only a recorded PaymentIntent is ever touched from Stripe's
   * webhook (migration 074).
   */
  function remember(request: ChargeRequest, intentId: string | null): void {
    const hotelId = request.hotelId;
    if (!hotelId) return;
    const record = () =>
      stripeIntents
        .noteCreated(db, {
          hotelId,
          chargeKey: chargeIdempotencyKey(request),
          intentId,
          basis: request.idempotencyBasis ?? request.reference,
          amount: request.amount,
          currency: request.currency,
        })
        .catch((err: unknown) =>
          deps.log.warn({ err, intent: intentId }, 'could not record a Stripe PaymentIntent'),
        );
    if (request.afterEnd) request.afterEnd(record);
    else void record();
  }

  /**
   * The Customer a card on file is kept with: one per payment basis (the same on a retry, so a
   * retried booking finds the same Customer), named only by the hotel and the basis.
   */
  async function newCustomer(request: ChargeRequest): Promise<string> {
    const basis = request.idempotencyBasis ?? request.reference;
    const key = createHash('sha256')
      .update(JSON.stringify(['customer', basis, request.token]))
      .digest('base64url');
    const customer = await stripe.customers.create(
      {
        description: `Innkeep ${basis}`,
        metadata: {
          [STRIPE_METADATA.basis]: basis,
          ...(request.hotelId ? { [STRIPE_METADATA.hotel]: request.hotelId } : {}),
        },
      },
      { idempotencyKey: `innkeep:customer:${key}` },
    );
    return customer.id;
  }

  async function intentToken(request: ChargeRequest, amount: number): Promise<ChargeResult> {
    let intent: Intent;
    try {
      intent = await stripe.paymentIntents.retrieve(request.token, { expand: ['latest_charge'] });
    } catch (err) {
      if (!isStripeError(err)) throw err;
      if (err.type === 'StripeInvalidRequestError')
        return { ok: false, declineCode: 'unknown_payment', message: 'This payment is unknown to Stripe.' };
      throw stripeUnavailable(err);
    }
    const basis = request.idempotencyBasis ?? request.reference;
    if (intent.metadata?.[STRIPE_METADATA.basis] !== basis)
      return {
        ok: false,
        declineCode: 'payment_mismatch',
        message: 'This payment was made for something else.',
      };
    if (intent.amount !== amount || intent.currency !== request.currency.toLowerCase())
      return {
        ok: false,
        declineCode: 'amount_mismatch',
        message: 'This payment is not for the amount due; please pay again.',
      };
    const outcome = outcomeOf(intent);
    return outcome.ok && request.saveCard ? { ...outcome, savedCard: savedCardOf(intent, null) } : outcome;
  }

  return {
    name: 'stripe',
    recognises: (token) => /^(pm|pi)_[A-Za-z0-9_]+$/.test(token),

    async charge(request) {
      const amount = toStripeAmount(request.amount, request.currency);
      if (amount === null)
        return {
          ok: false,
          declineCode: 'amount_not_chargeable',
          message: `Stripe cannot charge ${request.amount} minor units of ${request.currency} exactly (it takes ${request.currency} in tens).`,
        };
      if (request.token.startsWith('pi_')) return intentToken(request, amount);
      let intent: Stripe.Response<Intent>;
      try {
        // A card kept for later (a deposit plan, API.md 14.2) belongs to a Customer of its own.
        const customer =
          request.offSession?.customer ?? (request.saveCard ? await newCustomer(request) : null);
        intent = await stripe.paymentIntents.create(
          {
            amount,
            currency: request.currency.toLowerCase(),
            payment_method: request.token,
            // Cards and other methods that never leave the page; 3-D Secure runs in it (Stripe.js).
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            confirm: true,
            ...(customer ? { customer } : {}),
            ...(request.saveCard ? { setup_future_usage: 'off_session' as const } : {}),
            ...(request.offSession ? { off_session: true } : {}),
            // Only what is the same on every retry: Stripe replays a key only for the same parameters.
            description: `Innkeep ${request.idempotencyBasis ?? request.reference}`,
            metadata: {
              [STRIPE_METADATA.basis]: request.idempotencyBasis ?? request.reference,
              ...(request.hotelId ? { [STRIPE_METADATA.hotel]: request.hotelId } : {}),
            },
            expand: ['latest_charge'],
          },
          { idempotencyKey: chargeIdempotencyKey(request) },
        );
      } catch (err) {
        if (!isStripeError(err)) throw err;
        if (!isGuestRefusal(err)) {
          // Stripe may have created it before the answer was lost: recorded by its key, found again
          // when its webhook names it.
          if (isTransient(err)) remember(request, null);
          throw stripeUnavailable(err);
        }
        // A decline: Stripe's reason (never card data) for the guest.
        const declined = (err as { payment_intent?: { id?: string } }).payment_intent?.id;
        if (declined) remember(request, declined);
        return {
          ok: false,
          declineCode: err.decline_code ?? err.code ?? 'card_declined',
          message: err.message ?? 'The card was declined.',
        };
      }
      remember(request, intent.id);
      if (request.saveCard && intent.status === 'succeeded') {
        const outcome = outcomeOf(intent);
        return outcome.ok ? { ...outcome, savedCard: savedCardOf(intent, request.token) } : outcome;
      }
      // A replay (a retry after a failure or crash) answers the PaymentIntent as it was then: ask
      // for it as it is now, in case it was refunded since.
      if (intent.lastResponse?.headers?.['idempotent-replayed'] === 'true' && intent.status === 'succeeded') {
        return outcomeOf(
          await withStripe(() => stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] })),
        );
      }
      return outcomeOf(intent);
    },

    async refund(request) {
      if (!request.providerRef?.startsWith('pi_'))
        throw new RefundRefused('no Stripe payment to refund for this reservation');
      const amount = toStripeAmount(request.amount, request.currency);
      if (amount === null)
        throw new RefundRefused(`Stripe cannot refund ${request.amount} ${request.currency} exactly`);
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: request.providerRef,
            amount,
            metadata: { innkeep_reference: request.reference },
          },
          request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {},
        );
        if (refund.status === 'failed' || refund.status === 'canceled')
          throw new RefundRefused(`Stripe answered the refund ${refund.status}`);
        return { providerRef: refund.id };
      } catch (err) {
        const e = err as Stripe.errors.StripeError;
        if (e.type === 'StripeInvalidRequestError' || e.type === 'StripeCardError')
          throw new RefundRefused(e.message ?? 'Stripe refused the refund');
        throw err;
      }
    },

    async abandon(charge) {
      await stripeIntents.noteUnmatched(db, {
        intentId: charge.providerRef,
        hotelId: charge.hotelId,
        reference: charge.reference,
        amount: charge.amount,
        currency: charge.currency,
      });
    },

    async claim(tx, providerRef, request) {
      // A PaymentIntent sent back as a token (after 3-D Secure) is one this service created, for
      // this hotel and this payment: metadata alone can be written by another integration.
      if (request.token === providerRef) {
        const ours = await stripeIntents.created(tx, providerRef, null);
        const basis = request.idempotencyBasis ?? request.reference;
        if (!ours || ours.hotelId !== request.hotelId || ours.basis !== basis) return 'not_ours';
      }
      return (await stripeIntents.claimForCharge(tx, providerRef)) ? 'claimed' : 'refunded';
    },
  };
}
