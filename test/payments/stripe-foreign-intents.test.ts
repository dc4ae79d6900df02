import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepaidPlan } from '../../src/catalog/catalog.fixtures.ts';
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

/**
 * API.md 4 (issue 32.1): Stripe's webhook touches only the PaymentIntents Innkeep created, for the
 * hotel and payment their metadata names. Another integration's payment on the hotel's Stripe
 * account (a gift card), or one whose metadata names another hotel's reservation, is acknowledged
 * and ignored: never recorded, never refunded, never an event.
 */
const plan = () =>
  prepaidPlan({
    name: 'Prepaid flexible',
    prices: { double: { base: 10000, includedAdults: 2, extraAdult: 3000, child: 1500 } },
  });
const hotel = makeHotel();
hotel.ratePlans.push(plan());
const other = makeHotel();
other.ratePlans.push(plan());

let t: TestApp;
const stripe = new FakeStripe();
let day = 10;
const prepaidStay = (hotelId = hotel.id) => ({
  hotelId,
  ...stay(t, day++, 2),
  adults: 2,
  roomTypeId: 'double',
  ratePlanId: 'prepaid',
});

function deliver(type: string, object: unknown) {
  const event = stripe.signedEvent(type, object);
  return t.inject({
    method: 'POST',
    url: '/api/v1/payments/stripe/webhook',
    payload: event.payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.signature },
  });
}

/** A PaymentIntent made by someone else on the same Stripe account, as its webhook shows it. */
function foreignIntent(id: string, metadata: Record<string, string>, status = 'succeeded') {
  return {
    id,
    object: 'payment_intent',
    amount: 5000,
    currency: 'eur',
    status,
    payment_method: 'pm_card_visa',
    metadata,
    last_payment_error:
      status === 'succeeded'
        ? null
        : {
            type: 'invalid_request_error',
            code: 'payment_intent_authentication_failure',
            message: 'The provided PaymentMethod has failed authentication.',
          },
  };
}

async function eventsAbout(intentId: string): Promise<Json[]> {
  const { rows } = await t.db.query<Json>(
    `SELECT type, hotel_id AS "hotelId" FROM events WHERE data->'payment'->>'providerRef' = $1`,
    [intentId],
  );
  return rows;
}

const unmatched = async (intentId: string) =>
  (await t.db.query(`SELECT 1 FROM stripe_unmatched_intents WHERE intent_id = $1`, [intentId])).rows.length;

/** Past the unmatched payments' grace (1 s here), one pass of the payment worker. */
async function pastGrace() {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await t.runtime.paymentWorker.runOnce();
}

before(async () => {
  await stripe.start();
  t = await startBookingApp({
    hotels: [hotel, other],
    env: { ...stripe.env(), STRIPE_UNMATCHED_REFUND_AFTER_SECONDS: '1' },
  });
});
after(async () => {
  await t?.close();
  await stripe.stop();
});

describe('Stripe PaymentIntents Innkeep did not create', () => {
  it('a gift card sold by another integration is acknowledged, logged and never refunded', async () => {
    const res = await deliver('payment_intent.succeeded', foreignIntent('pi_giftcard1', {}));
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { received: true, outcome: 'ignored' });
    assert.equal(await unmatched('pi_giftcard1'), 0);
    const refunds = stripe.refunds.length;
    await pastGrace();
    assert.equal(stripe.refunds.length, refunds);
    assert.deepEqual(await eventsAbout('pi_giftcard1'), []);
    assert.ok(t.logs.some((line) => line.includes('pi_giftcard1') && line.includes('did not create')));
  });

  it('metadata copied from Innkeep’s is not enough: a PaymentIntent it never made is left alone', async () => {
    const quote = await quoteOk(t, prepaidStay());
    const forged = foreignIntent('pi_forgedmeta', {
      innkeep_basis: `quote/${quote.id}`,
      innkeep_hotel: hotel.id,
    });
    assert.equal((await deliver('payment_intent.succeeded', forged)).json().outcome, 'ignored');
    const refunds = stripe.refunds.length;
    await pastGrace();
    assert.equal(stripe.refunds.length, refunds);
    assert.deepEqual(await eventsAbout('pi_forgedmeta'), []);
    const { rows } = await t.db.query(
      `SELECT settlement FROM stripe_unmatched_intents WHERE intent_id = $1`,
      ['pi_forgedmeta'],
    );
    assert.deepEqual(rows, [{ settlement: 'foreign' }]);
  });

  it('a failure naming another hotel’s reservation moves no event into either hotel’s feed', async () => {
    const { reservation } = await book(t, prepaidStay(other.id), { payment: { token: 'pm_card_visa' } });
    // Another integration's PaymentIntent, its metadata naming the other hotel's reservation for this hotel.
    const named = foreignIntent(
      'pi_otherhotel',
      { innkeep_basis: `${reservation.id}/checkin/paid-0`, innkeep_hotel: hotel.id },
      'requires_payment_method',
    );
    assert.equal((await deliver('payment_intent.payment_failed', named)).json().outcome, 'ignored');
    assert.deepEqual(await eventsAbout('pi_otherhotel'), []);
    // Innkeep's own PaymentIntent for the other hotel, its metadata rewritten to name this hotel.
    const quote = await quoteOk(t, prepaidStay(other.id));
    const problem = assertProblem(
      await reserve(t, quote.id, { payment: { token: 'pm_card_threeDSecure2Required' } }),
      402,
      'payment_failed',
    );
    const intent = stripe.intentByClientSecret(problem.nextAction.clientSecret) as Json;
    const moved = {
      ...stripe.intentObject(intent, false),
      status: 'requires_payment_method',
      metadata: { ...intent.metadata, innkeep_hotel: hotel.id },
      last_payment_error: named.last_payment_error,
    };
    assert.equal((await deliver('payment_intent.payment_failed', moved)).json().outcome, 'ignored');
    assert.deepEqual(await eventsAbout(intent.id), []);
    // As Innkeep made it: told to the hotel it was made for, and to no other.
    const asMade = { ...moved, metadata: intent.metadata };
    assert.equal((await deliver('payment_intent.payment_failed', asMade)).json().outcome, 'applied');
    assert.deepEqual(await eventsAbout(intent.id), [{ type: 'payment.failed', hotelId: other.id }]);
  });

  it('a PaymentIntent sent back as a token must be one Innkeep made for this payment', async () => {
    const quote = await quoteOk(t, prepaidStay());
    // Paid at the same Stripe account by someone else, with metadata copied from Innkeep's.
    const id = 'pi_paidelsewhere';
    stripe.intents.set(id, {
      id,
      object: 'payment_intent',
      amount: quote.total.amount,
      currency: 'eur',
      status: 'succeeded',
      client_secret: `${id}_secret_x`,
      metadata: { innkeep_basis: `quote/${quote.id}`, innkeep_hotel: hotel.id },
      payment_method: 'pm_card_visa',
      last_payment_error: null,
      refunded: 0,
    });
    const refused = assertProblem(
      await reserve(t, quote.id, { payment: { token: id } }),
      402,
      'payment_failed',
    );
    assert.equal(refused.errors[0].declineCode, 'payment_mismatch');
  });

  it('still refunds Innkeep’s own payment whose answer was lost and whose guest never came back', async () => {
    const quote = await quoteOk(t, prepaidStay());
    const before = stripe.succeededCount();
    stripe.delay = { count: 3, ms: 1500 };
    assertProblem(
      await reserve(t, quote.id, { payment: { token: 'pm_card_visa' } }),
      503,
      'service_unavailable',
    );
    assert.equal(stripe.succeededCount(), before + 1);
    const intent = [...stripe.intents.values()].at(-1) as Json;
    const res = await deliver('payment_intent.succeeded', stripe.intentObject(intent, false));
    assert.equal(res.json().outcome, 'applied');
    await pastGrace();
    assert.equal(stripe.refunds.at(-1)?.payment_intent, intent.id);
    assert.deepEqual(await eventsAbout(intent.id), [{ type: 'payment.voided', hotelId: hotel.id }]);
  });

  it('…also when Stripe’s webhook comes before the request whose answer was lost has ended', async () => {
    const quote = await quoteOk(t, prepaidStay());
    const intents = stripe.intents.size;
    stripe.delay = { count: 3, ms: 1500 };
    const lost = reserve(t, quote.id, { payment: { token: 'pm_card_visa' } });
    while (stripe.intents.size === intents) await new Promise((resolve) => setTimeout(resolve, 20));
    const intent = [...stripe.intents.values()].at(-1) as Json;
    // Usually before the request has given up on Stripe (three timeouts): Innkeep's record not yet written.
    await deliver('payment_intent.succeeded', stripe.intentObject(intent, false));
    assertProblem(await lost, 503, 'service_unavailable');
    await pastGrace();
    assert.equal(stripe.refunds.at(-1)?.payment_intent, intent.id);
    assert.deepEqual(await eventsAbout(intent.id), [{ type: 'payment.voided', hotelId: hotel.id }]);
  });
});
