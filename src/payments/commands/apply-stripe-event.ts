import type Stripe from 'stripe';
import type { Clock } from '../../infra/clock.ts';
import type { Database, Executor } from '../../infra/db/database.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import { reservationPaymentsRepository as reservationPayments } from '../../reservations/reservation-payments.repository.ts';
import { recordPaymentEvent } from '../payment-events.ts';
import { paymentLedger } from '../payments.repository.ts';
import { chargeIdempotencyKey, ourAmount, STRIPE_METADATA } from '../stripe-intent-outcome.ts';
import { type CreatedIntent, stripeIntents } from '../stripe-intents.repository.ts';
import { stripeWebhookEvents } from '../stripe-webhook-events.repository.ts';

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored';

/** What the webhook did with an event, and why it left alone a PaymentIntent that is not Innkeep's. */
export interface WebhookResult {
  outcome: WebhookOutcome;
  /** Set when the event named a PaymentIntent Innkeep did not create for what its metadata says. */
  foreign?: string;
}

const applied = { outcome: 'applied' } as const;
/** The purposes of charges made to a card on file without the guest (payments/card-on-file.ts). */
const OFF_SESSION_PURPOSES = new Set(['balance', 'card_on_file']);
const ignored = { outcome: 'ignored' } as const;

const idOf = (ref: string | { id: string } | null | undefined): string | null =>
  typeof ref === 'string' ? ref : (ref?.id ?? null);

/** The reservation a Stripe payment paid for (our ledger knows it), locked for a change. */
async function ownerOf(tx: Executor, intentId: string | null) {
  if (!intentId) return null;
  const owner = await paymentLedger.chargeOwner(tx, 'stripe', intentId);
  return owner
    ? reservations.findById(tx, owner.reservationId, { forUpdate: true, hotelId: owner.hotelId })
    : null;
}

/**
 * Applies one verified Stripe event to the ledger (docs/api.md §4), once: its id is stored with the
 * change, so a redelivery is a no-op. Each handler compares what Stripe reports with what the
 * ledger holds, so events coming out of order (a refund before our charge has committed, an old
 * failure after the success) change nothing they should not.
 */
export async function applyStripeEvent(
  db: Database,
  clock: Clock,
  event: Stripe.Event,
): Promise<WebhookResult> {
  return db.transaction(async (tx) => {
    const object = event.data.object as { id?: string };
    if (!(await stripeWebhookEvents.firstTime(tx, event.id, event.type, object.id ?? null)))
      return { outcome: 'duplicate' };
    switch (event.type) {
      case 'payment_intent.succeeded':
        return intentSucceeded(tx, event.data.object);
      case 'payment_intent.payment_failed':
        return intentFailed(tx, event.data.object);
      case 'charge.refunded':
        return { outcome: await chargeRefunded(tx, clock, event.data.object) };
      case 'charge.dispute.created':
        return { outcome: await disputeCreated(tx, event.data.object) };
      default:
        return ignored;
    }
  });
}

/**
 * The record of a PaymentIntent Innkeep created (migration 074), when the event's PaymentIntent is
 * one, for the hotel and basis its metadata names; else why not. Found by its id, or (the create
 * call's answer was lost) by the idempotency key its own parameters give: the hotel, the basis,
 * the amount and the PaymentMethod the guest paid with.
 */
async function ours(
  tx: Executor,
  intent: Stripe.PaymentIntent,
): Promise<
  { record: CreatedIntent } | { foreign: string; claimed?: { hotelId: string; chargeKey: string | null } }
> {
  const hotelId = intent.metadata?.[STRIPE_METADATA.hotel];
  const basis = intent.metadata?.[STRIPE_METADATA.basis];
  if (!hotelId || !basis) return { foreign: 'a PaymentIntent without Innkeep’s metadata' };
  const token = idOf(intent.payment_method as string | { id: string } | null);
  const chargeKey = token
    ? chargeIdempotencyKey({
        amount: ourAmount(intent.amount, intent.currency),
        currency: intent.currency.toUpperCase(),
        token,
        reference: basis,
        idempotencyBasis: basis,
      })
    : null;
  const record = await stripeIntents.created(tx, intent.id, chargeKey ? { hotelId, chargeKey } : null);
  if (!record) return { foreign: 'a PaymentIntent Innkeep did not create', claimed: { hotelId, chargeKey } };
  if (record.hotelId !== hotelId || record.basis !== basis)
    return { foreign: 'a PaymentIntent whose metadata names another hotel or payment than it was made for' };
  return { record };
}

/**
 * Known: our charge recorded it. Innkeep's but not in the ledger: money taken without a booking
 * (yet), for the worker. Not Innkeep's (another integration on the hotel's Stripe account, a gift
 * card): never recorded, never refunded (API.md section 4).
 */
async function intentSucceeded(tx: Executor, intent: Stripe.PaymentIntent): Promise<WebhookResult> {
  if (await paymentLedger.chargeOwner(tx, 'stripe', intent.id)) return ignored;
  const found = await ours(tx, intent);
  const amount = ourAmount(intent.amount, intent.currency);
  const currency = intent.currency.toUpperCase();
  if ('foreign' in found) {
    // Claiming to be Innkeep's but not recorded: perhaps not yet (the create call's answer was lost
    // and its request has not ended). Noted for the worker, which refunds it only if Innkeep's
    // record of it appears within the grace, and otherwise leaves it alone for good.
    const claimed = found.claimed;
    if (claimed?.chargeKey)
      await stripeIntents.noteUnmatched(tx, {
        intentId: intent.id,
        hotelId: claimed.hotelId,
        reference: intent.metadata?.[STRIPE_METADATA.basis] ?? intent.id,
        amount,
        currency,
        chargeKey: claimed.chargeKey,
      });
    return { ...ignored, foreign: found.foreign };
  }
  await stripeIntents.noteUnmatched(tx, {
    intentId: intent.id,
    hotelId: found.record.hotelId,
    reference: found.record.basis,
    amount,
    currency,
  });
  return applied;
}

/** A payment that failed after the request (3-D Secure abandoned, a late decline): told to the hotel. */
async function intentFailed(tx: Executor, intent: Stripe.PaymentIntent): Promise<WebhookResult> {
  // Out of order: the same PaymentIntent succeeded and paid for a booking; this is history.
  if (await paymentLedger.chargeOwner(tx, 'stripe', intent.id)) return ignored;
  // A card declined while the guest waited was answered then (402): only failures after the
  // guest's own action (3-D Secure failed) are news to the hotel.
  if (intent.last_payment_error?.type === 'card_error') return ignored;
  const found = await ours(tx, intent);
  if ('foreign' in found) return { ...ignored, foreign: found.foreign };
  const { hotelId, basis } = found.record;
  // The basis names the reservation (`R7K3M9Q2X/checkin/…`), or the quote of a booking not made;
  // only a reservation of the hotel the payment was made for.
  const [code = '', purpose = 'booking'] = basis.startsWith('quote/') ? [] : basis.split('/');
  // A card on file charged without the guest (the balance, the desk's charge-card: API.md 14.2)
  // fails only while Innkeep waits for Stripe's answer, and that refusal recorded `payment.failed`
  // then; no guest action can fail it later, so any later word from Stripe on it is old news.
  if (OFF_SESSION_PURPOSES.has(purpose)) return ignored;
  const named = code ? await reservations.findByCode(tx, code) : null;
  const reservation = named?.hotelId === hotelId ? named : null;
  await recordPaymentEvent(tx, 'payment.failed', hotelId, reservation, {
    amount: ourAmount(intent.amount, intent.currency),
    currency: intent.currency.toUpperCase(),
    kind: 'charge',
    purpose,
    providerRef: intent.id,
    declineCode: intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code ?? null,
    reason: intent.last_payment_error?.message ?? null,
  });
  return applied;
}

/** Refunded at Stripe beyond what our ledger holds (from Stripe's dashboard): recorded as such. */
async function chargeRefunded(tx: Executor, clock: Clock, charge: Stripe.Charge): Promise<WebhookOutcome> {
  const intentId = idOf(charge.payment_intent);
  const row = await ownerOf(tx, intentId);
  if (!row || !intentId) return 'ignored';
  const refunded = ourAmount(charge.amount_refunded, charge.currency);
  const known = await paymentLedger.refundedOf(tx, intentId);
  if (refunded <= known) return 'ignored';
  const amount = Math.min(refunded - known, row.paidAmount);
  if (amount <= 0) return 'ignored';
  const latest = charge.refunds?.data?.[0]?.id;
  await paymentLedger.record(tx, {
    reservationId: row.id,
    kind: 'refund',
    purpose: 'provider',
    amount,
    currency: row.currency,
    provider: 'stripe',
    providerRef: latest ?? `${charge.id}/refunded/${charge.amount_refunded}`,
    chargeRef: intentId,
  });
  const after = await reservationPayments.refundedAtProvider(tx, row, amount, clock.now());
  await recordPaymentEvent(tx, 'payment.refunded', row.hotelId, after, {
    amount,
    currency: row.currency,
    kind: 'refund',
    purpose: 'provider',
    providerRef: intentId,
  });
  return 'applied';
}

/** A chargeback opened: the money is not moved yet, but the hotel must answer it at Stripe. */
async function disputeCreated(tx: Executor, dispute: Stripe.Dispute): Promise<WebhookOutcome> {
  const intentId = idOf(dispute.payment_intent);
  const row = await ownerOf(tx, intentId);
  if (!row || !intentId) return 'ignored';
  const amount = ourAmount(dispute.amount, dispute.currency);
  await paymentLedger.record(tx, {
    reservationId: row.id,
    kind: 'dispute',
    purpose: 'provider',
    amount,
    currency: row.currency,
    provider: 'stripe',
    providerRef: dispute.id,
    chargeRef: intentId,
  });
  await recordPaymentEvent(tx, 'payment.disputed', row.hotelId, row, {
    amount,
    currency: row.currency,
    kind: 'dispute',
    purpose: 'provider',
    providerRef: intentId,
    reason: dispute.reason,
  });
  return 'applied';
}
