/**
 * A deposit plan with PAYMENT_PROVIDER=stripe (API.md 14.2), against the local Stripe stand-in
 * (test/helpers/fake-stripe.ts, every request checked against Stripe's OpenAPI document): the
 * booking makes a Customer and a PaymentIntent with `setup_future_usage: "off_session"`; the
 * balance is charged off-session to that Customer's PaymentMethod once when due.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ratePlan } from '../../src/catalog/catalog.fixtures.ts';
import { book, type Json, stay } from '../booking/helpers.ts';
import { FakeStripe } from '../helpers/fake-stripe.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { eventually } from '../postgres/support.ts';

const hotel = makeHotel({ timezone: 'Europe/Lisbon', taxes: [] });
hotel.ratePlans.push(
  ratePlan({
    id: 'deposit',
    name: 'Deposit 25%',
    prepayment: 'deposit',
    deposit: { percent: 25 },
    balanceDueDays: 5,
    prices: { double: { base: 10000, includedAdults: 2, extraAdult: 0, child: 0 } },
  }),
);

const stripe = new FakeStripe();
let app: OperatorApp;
let t: TestApp;
before(async () => {
  await stripe.start();
  app = await startOperatorApp(
    { ...stripe.env(), BALANCE_POLL_INTERVAL_MS: '50', LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0' },
    [hotel, makeHotel()],
  );
  t = app.t;
});
after(async () => {
  await t?.close();
  await stripe.stop();
});

/** Stripe's webhook, as Stripe delivers an event: signed, to the service's endpoint. */
function deliver(event: { payload: string; signature: string }) {
  return t.inject({
    method: 'POST',
    url: '/api/v1/payments/stripe/webhook',
    payload: event.payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.signature },
  });
}

async function eventsOf(type: string, code: string): Promise<Json[]> {
  const { rows } = await t.db.query<Json>(
    `SELECT data FROM events WHERE type = $1 AND data->'reservation'->>'id' = $2 ORDER BY position`,
    [type, code],
  );
  return rows.map((r) => r.data);
}

/** Every event Stripe sends for its PaymentIntents, for those made since `from` (Stripe sends them all). */
async function deliverIntentEvents(from: number): Promise<void> {
  for (const intent of [...stripe.intents.values()].slice(from)) {
    const type = intent.status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed';
    const res = await deliver(stripe.signedEvent(type, stripe.intentObject(intent, false)));
    assert.equal(res.statusCode, 200, res.body);
  }
}

it('keeps the card with a Customer and charges the balance off-session once', async () => {
  const { reservation } = await book(
    t,
    { hotelId: hotel.id, ...stay(t, 15, 2), adults: 2, roomTypeId: 'double', ratePlanId: 'deposit' },
    { payment: { token: 'pm_card_visa' } },
  );
  assert.equal(reservation.payment.paid.amount, 5000);
  assert.deepEqual(reservation.payment.card, { brand: 'visa', last4: '4242' });
  assert.equal(stripe.customers.size, 1);
  const [customer] = [...stripe.customers.keys()];
  const [deposit] = [...stripe.intents.values()];
  assert.equal(deposit?.customer, customer);
  assert.equal(deposit?.setup_future_usage, 'off_session');
  assert.equal(deposit?.amount, 5000);

  const balance = reservation.payment.schedule.find((p: Json) => p.kind === 'balance');
  t.clock.advance(new Date(balance.dueAt).getTime() - t.clock.now().getTime() + 1000);
  await eventually('the balance charged', async () => (stripe.succeededCount() === 2 ? true : undefined));
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(stripe.succeededCount(), 2, 'charged once');
  const second = [...stripe.intents.values()][1];
  assert.equal(second?.customer, customer);
  assert.equal(second?.payment_method, 'pm_card_visa');
  assert.equal(second?.off_session, true);
  assert.equal(second?.amount, 15000);
  assert.equal(stripe.net(), 20000);
  assert.deepEqual(stripe.violations, []);
});

it('records one payment.failed for a balance the card on file refuses, however Stripe tells of it', async () => {
  const held = stripe.net();
  const { reservation } = await book(
    t,
    { hotelId: hotel.id, ...stay(t, 16, 2), adults: 2, roomTypeId: 'double', ratePlanId: 'deposit' },
    { payment: { token: 'pm_card_visa' } },
  );
  const code = reservation.id;
  const before = stripe.intents.size;
  stripe.declineOffSession = 'insufficient_funds';
  try {
    const balance = reservation.payment.schedule.find((p: Json) => p.kind === 'balance');
    t.clock.advance(new Date(balance.dueAt).getTime() - t.clock.now().getTime() + 1000);
    await eventually('the balance refused', async () => {
      const { rows } = await t.db.query<{ stay: Json }>('SELECT stay FROM reservations WHERE code = $1', [
        code,
      ]);
      const status = rows[0]?.stay.paymentSchedule.find((p: Json) => p.kind === 'balance').status;
      return status === 'failed' ? true : undefined;
    });
    // The refused PaymentIntent's webhook (payment_intent.payment_failed), as Stripe sends it.
    await deliverIntentEvents(before);
    // And Stripe's word on it again, with the failure in other terms (an event for each attempt
    // on the PaymentIntent; the card's issuer asking for the guest, who is not there): old news.
    const refused = [...stripe.intents.values()].at(before);
    assert.equal(refused?.off_session, true);
    const again = stripe.signedEvent('payment_intent.payment_failed', {
      ...stripe.intentObject(refused as NonNullable<typeof refused>, false),
      last_payment_error: {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: 'The provided PaymentMethod has failed authentication.',
      },
    });
    assert.equal((await deliver(again)).statusCode, 200);
    // The desk then tries the card too: declined again, and Stripe tells of that one as well.
    const desk = stripe.intents.size;
    const charged = await t.inject({
      method: 'POST',
      url: `${OPERATOR}/reservations/${code}/charge-card`,
      headers: auth(app.root),
      payload: { reason: 'balance' },
    });
    assert.equal(charged.statusCode, 402, charged.body);
    await deliverIntentEvents(desk);
    // Let the worker run again: a refused balance is never charged again by itself.
    t.clock.advance(3600_000);
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    stripe.declineOffSession = null;
  }
  const failed = await eventsOf('payment.failed', code);
  assert.deepEqual(
    failed.map((e) => [e.payment.purpose, e.payment.amount.amount, e.payment.declineCode]),
    [
      ['balance', 15000, 'insufficient_funds'],
      ['card_on_file', 15000, 'insufficient_funds'],
    ],
    'one payment.failed per refusal',
  );
  const succeeded = await eventsOf('payment.succeeded', code);
  assert.deepEqual(
    succeeded.map((e) => e.payment.purpose),
    ['booking'],
  );
  assert.equal(stripe.net() - held, 5000, 'only the deposit was taken');
  assert.deepEqual(stripe.violations, []);
});
