import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepaidPlan } from '../../src/catalog/catalog.fixtures.ts';
import { stripeIntents } from '../../src/payments/stripe-intents.repository.ts';
import {
  assertProblem,
  book,
  type Json,
  quoteOk,
  reserve,
  startBookingApp,
  stay,
} from '../booking/helpers.ts';
import { FakeStripe } from '../helpers/fake-stripe.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';

/** API.md 4: `POST /api/v1/payments/stripe/webhook`, signed by Stripe, each event applied once. */
const hotel = makeHotel();
hotel.ratePlans.push(
  prepaidPlan({
    name: 'Prepaid flexible',
    prices: { double: { base: 10000, includedAdults: 2, extraAdult: 3000, child: 1500 } },
  }),
);

let t: TestApp;
const stripe = new FakeStripe();
let day = 10;
const prepaidStay = () => ({
  hotelId: hotel.id,
  ...stay(t, day++, 2),
  adults: 2,
  roomTypeId: 'double',
  ratePlanId: 'prepaid',
});
const WEBHOOK = '/api/v1/payments/stripe/webhook';

function deliver(event: { payload: string; signature: string }) {
  return t.inject({
    method: 'POST',
    url: WEBHOOK,
    payload: event.payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.signature },
  });
}

async function paidBooking() {
  const booked = await book(t, prepaidStay(), { payment: { token: 'pm_card_visa' } });
  const intent = [...stripe.intents.values()].at(-1) as Json;
  return { ...booked, intent };
}

const read = async (code: string, token: string) =>
  (
    await t.inject({
      method: 'GET',
      url: `/api/v1/booking/reservations/${code}`,
      headers: { authorization: `Bearer ${token}` },
    })
  ).json();

async function eventsOf(type: string, code: string): Promise<Json[]> {
  const { rows } = await t.db.query<Json>(
    `SELECT data FROM events WHERE type = $1 AND data->'reservation'->>'id' = $2 ORDER BY position`,
    [type, code],
  );
  return rows.map((r) => r.data);
}

function chargeObject(intent: Json, refunded: number) {
  return {
    id: `ch_${intent.id.slice(3)}`,
    object: 'charge',
    amount: intent.amount,
    amount_refunded: refunded,
    currency: intent.currency,
    payment_intent: intent.id,
    refunds: { object: 'list', data: [{ id: `re_dash_${refunded}`, object: 'refund', amount: refunded }] },
  };
}

before(async () => {
  await stripe.start();
  t = await startBookingApp({
    hotels: [hotel],
    env: { ...stripe.env(), STRIPE_UNMATCHED_REFUND_AFTER_SECONDS: '1' },
  });
});
after(async () => {
  await t?.close();
  await stripe.stop();
});

describe('Stripe webhooks', () => {
  it('refuses a tampered body, a wrong secret, a stale timestamp and no signature (400), changing nothing', async () => {
    const { intent } = await paidBooking();
    const good = stripe.signedEvent('charge.refunded', chargeObject(intent, 1000));
    const tampered = {
      ...good,
      payload: good.payload.replace('"amount_refunded":1000', '"amount_refunded":9000'),
    };
    assertProblem(await deliver(tampered), 400, 'validation_error');
    assertProblem(
      await deliver(
        stripe.signedEvent('charge.refunded', chargeObject(intent, 1000), { secret: 'whsec_other' }),
      ),
      400,
      'validation_error',
    );
    const stale = stripe.signedEvent('charge.refunded', chargeObject(intent, 1000), {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    assertProblem(await deliver(stale), 400, 'validation_error');
    assertProblem(await deliver({ payload: good.payload, signature: '' }), 400, 'validation_error');
    const { rows } = await t.db.query(`SELECT 1 FROM stripe_webhook_events WHERE event_id = $1`, [good.id]);
    assert.equal(rows.length, 0);
  });

  it('records a refund made in Stripe’s dashboard once, however often and in whatever order it comes', async () => {
    const { reservation, token, intent } = await paidBooking();
    const first = stripe.signedEvent('charge.refunded', chargeObject(intent, 5000));
    const res = await deliver(first);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { received: true, outcome: 'applied' });
    let now = await read(reservation.id, token);
    assert.equal(now.payment.status, 'partially_refunded');
    assert.equal(now.payment.paid.amount, reservation.total.amount - 5000);
    // Replayed: applied once.
    assert.equal((await deliver(first)).json().outcome, 'duplicate');
    // A second refund, then the first one's event again under another id (out of order): only the new money counts.
    assert.equal(
      (await deliver(stripe.signedEvent('charge.refunded', chargeObject(intent, 8000)))).json().outcome,
      'applied',
    );
    assert.equal(
      (await deliver(stripe.signedEvent('charge.refunded', chargeObject(intent, 5000)))).json().outcome,
      'ignored',
    );
    now = await read(reservation.id, token);
    assert.equal(now.payment.paid.amount, reservation.total.amount - 8000);
    const events = await eventsOf('payment.refunded', reservation.id);
    assert.deepEqual(
      events.map((e) => [e.payment.amount.amount, e.payment.purpose]),
      [
        [5000, 'provider'],
        [3000, 'provider'],
      ],
    );
  });

  it('a late failure of a payment that succeeded is history: ignored', async () => {
    const { reservation, intent } = await paidBooking();
    const failed = { ...stripe.intentObject(intent, false), status: 'requires_payment_method' };
    assert.equal(
      (await deliver(stripe.signedEvent('payment_intent.payment_failed', failed))).json().outcome,
      'ignored',
    );
    assert.equal((await eventsOf('payment.failed', reservation.id)).length, 0);
    // Its success, arriving after our commit, changes nothing either.
    const ok = stripe.intentObject(intent, false);
    assert.equal(
      (await deliver(stripe.signedEvent('payment_intent.succeeded', ok))).json().outcome,
      'ignored',
    );
  });

  it('tells the hotel of a payment that failed after 3-D Secure (payment.failed), not of declines it answered', async () => {
    const { reservation } = await paidBooking();
    const base = {
      id: 'pi_latefailure',
      object: 'payment_intent',
      amount: 5000,
      currency: 'eur',
      status: 'requires_payment_method',
      metadata: { innkeep_basis: `${reservation.id}/checkin/paid-0`, innkeep_hotel: hotel.id },
    };
    const declined = {
      ...base,
      id: 'pi_declinedthen',
      last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    };
    assert.equal(
      (await deliver(stripe.signedEvent('payment_intent.payment_failed', declined))).json().outcome,
      'ignored',
    );
    // Innkeep made it (for the check-in step's payment), as its charge records when Stripe answers.
    await stripeIntents.noteCreated(t.db, {
      hotelId: hotel.id,
      chargeKey: 'innkeep:charge:latefailure',
      intentId: base.id,
      basis: base.metadata.innkeep_basis,
      amount: 5000,
      currency: 'EUR',
    });
    const failed = {
      ...base,
      last_payment_error: {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: 'The provided PaymentMethod has failed authentication.',
      },
    };
    assert.equal(
      (await deliver(stripe.signedEvent('payment_intent.payment_failed', failed))).json().outcome,
      'applied',
    );
    const [event] = await eventsOf('payment.failed', reservation.id);
    assert.equal(event.payment.purpose, 'checkin');
    assert.equal(event.payment.declineCode, 'payment_intent_authentication_failure');
    assert.equal(event.payment.amount.amount, 5000);
  });

  it('tells the hotel of a dispute (payment.disputed) and keeps it in the ledger', async () => {
    const { reservation, intent } = await paidBooking();
    const dispute = {
      id: 'dp_1',
      object: 'dispute',
      amount: intent.amount,
      currency: intent.currency,
      payment_intent: intent.id,
      reason: 'fraudulent',
      status: 'needs_response',
    };
    assert.equal(
      (await deliver(stripe.signedEvent('charge.dispute.created', dispute))).json().outcome,
      'applied',
    );
    const [event] = await eventsOf('payment.disputed', reservation.id);
    assert.equal(event.payment.reason, 'fraudulent');
    assert.equal(event.payment.amount.amount, reservation.total.amount);
    const { rows } = await t.db.query<Json>(`SELECT kind, amount FROM payments WHERE provider_ref = 'dp_1'`);
    assert.deepEqual(rows, [{ kind: 'dispute', amount: reservation.total.amount }]);
  });

  it('refunds a payment that succeeded without a booking once its grace has passed (payment.voided)', async () => {
    // 3-D Secure completed in the browser, but the guest never sent the PaymentIntent back.
    const quote = await quoteOk(t, prepaidStay());
    const problem = assertProblem(
      await reserve(t, quote.id, { payment: { token: 'pm_card_threeDSecure2Required' } }),
      402,
      'payment_failed',
    );
    const intent = stripe.intentByClientSecret(problem.nextAction.clientSecret) as Json;
    stripe.completeAction(intent.id);
    const succeeded = stripe.signedEvent('payment_intent.succeeded', stripe.intentObject(intent, false));
    assert.equal((await deliver(succeeded)).json().outcome, 'applied');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await t.runtime.paymentWorker.runOnce();
    assert.equal(stripe.refunds.at(-1)?.payment_intent, intent.id);
    assert.equal(stripe.refunds.at(-1)?.amount, intent.amount);
    const { rows } = await t.db.query<Json>(
      `SELECT data FROM events WHERE type = 'payment.voided' AND data->'payment'->>'providerRef' = $1`,
      [intent.id],
    );
    assert.equal(rows.length, 1);
    // Coming back too late: the refunded payment books nothing.
    const late = assertProblem(
      await reserve(t, quote.id, { payment: { token: intent.id } }),
      402,
      'payment_failed',
    );
    assert.equal(late.errors[0].declineCode, 'payment_refunded');
  });

  it('sent Stripe only what its OpenAPI document allows', () => {
    assert.deepEqual(stripe.violations, []);
  });
});
