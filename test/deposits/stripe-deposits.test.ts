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
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
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
let t: TestApp;
before(async () => {
  await stripe.start();
  t = await startTestApp({
    hotels: [hotel],
    env: { ...stripe.env(), BALANCE_POLL_INTERVAL_MS: '50', LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0' },
  });
});
after(async () => {
  await t?.close();
  await stripe.stop();
});

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
