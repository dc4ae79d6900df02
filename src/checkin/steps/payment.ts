import { Type } from '@sinclair/typebox';
import { recordEvent } from '../../events/record-event.ts';
import { MoneyRef } from '../../infra/http/common-schemas.ts';
import { StorableString } from '../../infra/http/text-schemas.ts';
import { closeBalance } from '../../payments/card-on-file.ts';
import { chargeWithinTransaction } from '../../payments/charge.ts';
import { operatorReservationView } from '../../reservations/reservation.view.ts';
import { reservationPaymentsRepository as reservationPayments } from '../../reservations/reservation-payments.repository.ts';
import { balanceDue } from '../rules/reservation-facts.ts';
import { defineStep } from './step.ts';

const PaymentData = Type.Object(
  {
    token: StorableString({
      minLength: 1,
      maxLength: 255,
      description: 'a payment provider token; the balance due is charged to it',
      examples: ['tok_visa'],
    }),
  },
  { additionalProperties: false, description: 'Payment of the balance due' },
);

const PaymentView = Type.Object(
  { amount: MoneyRef, brand: Type.Optional(Type.String()), last4: Type.Optional(Type.String()) },
  { additionalProperties: false, title: 'payment data' },
);

/**
 * The balance due, charged to a provider token (`payments/charge.ts`, refunded if the step's
 * transaction does not commit) and raised as `payment.succeeded` with it; skipped when nothing is
 * due. The session shows the receipt: amount, brand and last 4 digits.
 */
export const payment = defineStep({
  name: 'payment',
  data: PaymentData,
  example: { token: 'tok_visa' },
  views: [PaymentView],
  appliesTo: (facts) => facts.balanceDue > 0,
  accept(d, rules, problem) {
    if (!rules.recognisesPaymentToken(d.token))
      problem('/token', 'is not a payment token this service accepts');
    return { view: null, secret: null, attachment: null };
  },
  async effect(d, _accepted, { tx, deps, reservation, previous, now }) {
    const amount = balanceDue(reservation);
    // A correction after paying: nothing is owed, so nothing is charged and the receipt stays.
    if (amount === 0) return { view: previous, reservation };
    const charge = await chargeWithinTransaction(tx, deps, {
      reservationId: reservation.id,
      purpose: 'checkin',
      amount,
      currency: reservation.currency,
      token: d.token,
      reference: `${reservation.code}/checkin`,
      // The balance paid so far names this payment: the same on a retry, another after it.
      idempotencyBasis: `${reservation.code}/checkin/paid-${reservation.paidAmount}`,
      hotelId: reservation.hotelId,
      tokenPath: '/data/token',
      declined: (message, declineCode) => `The payment was declined (${declineCode}): ${message}`,
    });
    let paid = await reservationPayments.addPayment(tx, reservation, amount, now);
    // A deposit plan's balance (scheduled, or refused by the card on file) is paid now (API.md 14.2).
    if (paid.stay.paymentSchedule)
      paid = await reservationPayments.replaceStay(tx, paid, await closeBalance(tx, paid, 'paid'));
    // `payment.succeeded` (API.md 8.1), in the step's transaction: the reservation as the hotel sees it.
    await recordEvent(tx, {
      type: 'payment.succeeded',
      hotelId: paid.hotelId,
      data: {
        reservation: operatorReservationView(paid),
        payment: { amount: { amount, currency: paid.currency }, kind: 'charge', purpose: 'checkin' },
      },
    });
    const view = {
      amount: { amount, currency: reservation.currency },
      ...(charge.brand ? { brand: charge.brand } : {}),
      ...(charge.last4 ? { last4: charge.last4 } : {}),
    };
    return { view, reservation: paid };
  },
});
