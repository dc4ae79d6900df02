import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { prepaidPlan } from '../../src/catalog/catalog.fixtures.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { toStripeAmount } from '../../src/payments/stripe-amounts.ts';
import {
  addDays,
  assertProblem,
  book,
  cancel,
  type Json,
  modify,
  quoteOk,
  reserve,
  startBookingApp,
  stay,
} from '../booking/helpers.ts';
import { FakeStripe } from '../helpers/fake-stripe.ts';
import { faultyDatabase } from '../helpers/faults.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';

/** API.md 4 with PAYMENT_PROVIDER=stripe: the SDK against a local server checked against Stripe's OpenAPI. */
const PREPAID = prepaidPlan({
  name: 'Prepaid flexible',
  prices: { double: { base: 10000, includedAdults: 2, extraAdult: 3000, child: 1500 } },
});
const hotel = makeHotel();
hotel.ratePlans.push(PREPAID);
const yen = makeHotel({ currency: 'JPY', taxes: [] });
yen.ratePlans.push({
  ...PREPAID,
  prices: { double: { base: 12000, includedAdults: 2, extraAdult: 0, child: 0 } },
});
const dinar = makeHotel({ currency: 'KWD', taxes: [] });
dinar.ratePlans.push({
  ...PREPAID,
  prices: { double: { base: 30003, includedAdults: 2, extraAdult: 0, child: 0 } },
});

let t: TestApp;
const stripe = new FakeStripe();
const faults = faultyDatabase();
let day = 10;
const prepaidStay = (hotelId = hotel.id) => ({
  hotelId,
  ...stay(t, day++, 2),
  adults: 2,
  roomTypeId: 'double',
  ratePlanId: 'prepaid',
});

before(async () => {
  await stripe.start();
  t = await startBookingApp({
    hotels: [hotel, yen, dinar],
    env: { ...stripe.env(), STRIPE_UNMATCHED_REFUND_AFTER_SECONDS: '1' },
    wrapDb: faults.wrap,
  });
});
after(async () => {
  await t?.close();
  await stripe.stop();
});

describe('Stripe configuration', () => {
  it('names every missing key (the service exits 78 on a ConfigError)', () => {
    assert.throws(
      () => loadConfig({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.problems.some((p) => p.startsWith('STRIPE_PUBLISHABLE_KEY is required')) &&
        e.problems.some((p) => p.startsWith('STRIPE_WEBHOOK_SECRET is required')) &&
        !e.problems.some((p) => p.startsWith('STRIPE_SECRET_KEY')) &&
        !e.message.includes('sk_test_abc'),
    );
    assert.throws(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' }), ConfigError);
    assert.equal(loadConfig({}).paymentProvider, 'test');
  });

  it('tells clients the provider and publishable key', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/v1/payments/config' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { provider: 'stripe', publishableKey: stripe.publishableKey });
    assert.equal(res.headers['access-control-allow-origin'], '*');
  });

  it('documents the webhook and the config in an OpenAPI document that stays lint-clean', async () => {
    const document = (await t.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    assert.ok(document.paths['/api/v1/payments/stripe/webhook'].post);
    assert.ok(document.paths['/api/v1/payments/config'].get);
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: '/openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    assert.deepEqual(
      problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} at ${p.location[0]?.pointer}`),
      [],
    );
  });

  it('converts our minor units to Stripe’s', () => {
    assert.equal(toStripeAmount(12900, 'EUR'), 12900);
    assert.equal(toStripeAmount(12000, 'JPY'), 12000);
    assert.equal(toStripeAmount(500, 'ISK'), 50000);
    assert.equal(toStripeAmount(30010, 'KWD'), 30010);
    assert.equal(toStripeAmount(30005, 'KWD'), null);
  });
});

describe('Stripe charges', () => {
  it('books a prepaid plan with a PaymentMethod: one PaymentIntent for the total, in the hotel’s currency', async () => {
    const before = stripe.intents.size;
    const { reservation } = await book(t, prepaidStay(), { payment: { token: 'pm_card_visa' } });
    assert.equal(reservation.payment.status, 'paid');
    assert.equal(stripe.intents.size, before + 1);
    const intent = [...stripe.intents.values()].at(-1) as Json;
    assert.equal(intent.amount, reservation.total.amount);
    assert.equal(intent.currency, 'eur');
    assert.match(intent.metadata.innkeep_basis, /^quote\/q_/);
    const { rows } = await t.db.query<Json>(
      `SELECT p.provider, p.provider_ref, p.brand, p.last4 FROM payments p JOIN reservations r ON r.hotel_id = p.hotel_id AND r.id = p.reservation_id WHERE r.code = $1`,
      [reservation.id],
    );
    assert.deepEqual(rows, [{ provider: 'stripe', provider_ref: intent.id, brand: 'visa', last4: '4242' }]);
  });

  it('charges JPY as whole yen, and refuses a KWD amount Stripe cannot charge exactly', async () => {
    const { reservation } = await book(t, prepaidStay(yen.id), { payment: { token: 'pm_card_visa' } });
    const intent = [...stripe.intents.values()].at(-1) as Json;
    assert.equal(intent.currency, 'jpy');
    assert.equal(intent.amount, reservation.total.amount);
    const quote = await quoteOk(t, prepaidStay(dinar.id));
    const problem = assertProblem(
      await reserve(t, quote.id, { payment: { token: 'pm_card_visa' } }),
      402,
      'payment_failed',
    );
    assert.equal(problem.errors[0].declineCode, 'amount_not_chargeable');
  });

  for (const [token, decline] of [
    ['pm_card_chargeDeclined', 'generic_decline'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
  ]) {
    it(`answers 402 payment_failed with Stripe’s reason for ${token}: nothing booked`, async () => {
      const quote = await quoteOk(t, prepaidStay());
      const problem = assertProblem(
        await reserve(t, quote.id, { payment: { token } }),
        402,
        'payment_failed',
      );
      assert.equal(problem.errors[0].declineCode, decline);
      assert.match(problem.detail, /card/);
      assert.doesNotMatch(JSON.stringify(problem), /4242|0002|9995/);
      const { rows } = await t.db.query('SELECT 1 FROM reservations WHERE quote_id = $1', [quote.id]);
      assert.equal(rows.length, 0);
      // Another card then books the same quote.
      assert.equal((await reserve(t, quote.id, { payment: { token: 'pm_card_visa' } })).statusCode, 201);
    });
  }

  it('refuses a token that is no Stripe id with 400, before calling Stripe', async () => {
    const quote = await quoteOk(t, prepaidStay());
    assertProblem(await reserve(t, quote.id, { payment: { token: 'tok_visa' } }), 400, 'validation_error');
  });

  it('3-D Secure: 402 with nextAction, then the PaymentIntent id books it; it pays for nothing else', async () => {
    const quote = await quoteOk(t, prepaidStay());
    const first = assertProblem(
      await reserve(t, quote.id, { payment: { token: 'pm_card_threeDSecure2Required' } }),
      402,
      'payment_failed',
    );
    assert.equal(first.nextAction.type, 'stripe');
    const intent = stripe.intentByClientSecret(first.nextAction.clientSecret);
    assert.ok(intent);
    // Not yet confirmed by the guest: still the same answer.
    const early = assertProblem(
      await reserve(t, quote.id, { payment: { token: intent.id } }),
      402,
      'payment_failed',
    );
    assert.equal(early.nextAction.clientSecret, first.nextAction.clientSecret);
    stripe.completeAction(intent.id);
    const done = await reserve(t, quote.id, { payment: { token: intent.id } });
    assert.equal(done.statusCode, 201, done.body);
    assert.equal(done.json().payment.status, 'paid');
    // The same PaymentIntent cannot pay for another quote.
    const other = await quoteOk(t, prepaidStay());
    const reused = assertProblem(
      await reserve(t, other.id, { payment: { token: intent.id } }),
      402,
      'payment_failed',
    );
    assert.equal(reused.errors[0].declineCode, 'payment_mismatch');
    assertProblem(
      await reserve(t, other.id, { payment: { token: 'pi_doesnotexist' } }),
      402,
      'payment_failed',
    );
  });

  it('a timeout after Stripe charged never charges twice: the SDK’s retry, then the client’s', async () => {
    // One answer lost: the SDK retries with the same idempotency key and gets the same PaymentIntent.
    let before = stripe.succeededCount();
    stripe.delay = { count: 1, ms: 1500 };
    const { reservation } = await book(t, prepaidStay(), { payment: { token: 'pm_card_visa' } });
    assert.equal(reservation.payment.status, 'paid');
    assert.equal(stripe.succeededCount(), before + 1);
    // Every answer lost: 503, nothing booked; the client's retry books it on the same charge.
    before = stripe.succeededCount();
    const quote = await quoteOk(t, prepaidStay());
    stripe.delay = { count: 3, ms: 1500 };
    const lost = assertProblem(
      await reserve(t, quote.id, { payment: { token: 'pm_card_visa' } }),
      503,
      'service_unavailable',
    );
    assert.match(lost.detail, /nothing was booked/);
    assert.equal(stripe.succeededCount(), before + 1);
    const retry = await reserve(t, quote.id, { payment: { token: 'pm_card_visa' } });
    assert.equal(retry.statusCode, 201, retry.body);
    assert.equal(stripe.succeededCount(), before + 1);
    const keys = stripe.requests
      .filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents')
      .slice(-4);
    assert.equal(new Set(keys.map((k) => k.key)).size, 1);
  });

  it('a commit that fails after Stripe charged: the retry records the same payment, none is refunded', async () => {
    const quote = await quoteOk(t, prepaidStay());
    const before = stripe.succeededCount();
    const fired = faults.arm('before-commit');
    const failed = await reserve(t, quote.id, { payment: { token: 'pm_card_visa' } });
    await fired;
    assert.equal(failed.statusCode, 500, failed.body);
    assert.equal(stripe.succeededCount(), before + 1);
    const intent = [...stripe.intents.values()].at(-1) as Json;
    const unmatched = async () =>
      (
        await t.db.query<Json>(`SELECT settlement FROM stripe_unmatched_intents WHERE intent_id = $1`, [
          intent.id,
        ])
      ).rows[0];
    assert.deepEqual(await unmatched(), { settlement: null });
    const retry = await reserve(t, quote.id, { payment: { token: 'pm_card_visa' } });
    assert.equal(retry.statusCode, 201, retry.body);
    assert.equal(stripe.succeededCount(), before + 1);
    assert.deepEqual(await unmatched(), { settlement: 'matched' });
    // Past the grace, the worker leaves a matched payment alone.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refunds = stripe.refunds.length;
    await t.runtime.paymentWorker.runOnce();
    assert.equal(stripe.refunds.length, refunds);
    assert.equal(stripe.intents.get(intent.id)?.refunded, 0);
  });

  it('a cheaper change is refunded the difference, a dearer one charges it with a PaymentMethod', async () => {
    const body = prepaidStay();
    const { reservation, token } = await book(t, body, { payment: { token: 'pm_card_visa' } });
    const first = [...stripe.intents.values()].at(-1) as Json;
    const longer = await modify(t, reservation.id, token, {
      checkOut: addDays(body.checkOut, 1),
      payment: { token: 'pm_card_mastercard' },
    });
    assert.equal(longer.statusCode, 200, longer.body);
    const second = [...stripe.intents.values()].at(-1) as Json;
    assert.notEqual(second.id, first.id);
    assert.equal(second.amount, longer.json().total.amount - reservation.total.amount);
    assert.match(second.metadata.innkeep_basis, new RegExp(`^${reservation.id}/modification/v1$`));
    const shorter = await modify(t, reservation.id, token, { checkOut: body.checkOut });
    assert.equal(shorter.statusCode, 200, shorter.body);
    assert.equal(shorter.json().payment.status, 'partially_refunded');
    // The newest payment is refunded first.
    const refund = stripe.refunds.at(-1);
    assert.equal(refund?.payment_intent, second.id);
    assert.equal(refund?.amount, second.amount);
  });

  it('refunds a cancellation through Stripe’s Refunds API after the commit', async () => {
    const { reservation, token } = await book(t, prepaidStay(), { payment: { token: 'pm_card_visa' } });
    const intent = [...stripe.intents.values()].at(-1) as Json;
    const res = await cancel(t, reservation.id, token);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().payment.status, 'refunded');
    const refund = stripe.refunds.at(-1);
    assert.deepEqual(
      { ...refund, id: undefined },
      { id: undefined, payment_intent: intent.id, amount: intent.amount },
    );
    const { rows } = await t.db.query<Json>(
      `SELECT p.status, p.provider_ref FROM payments p JOIN reservations r ON r.hotel_id = p.hotel_id AND r.id = p.reservation_id
       WHERE r.code = $1 AND p.kind = 'refund'`,
      [reservation.id],
    );
    assert.deepEqual(rows, [{ status: 'succeeded', provider_ref: refund?.id }]);
  });

  it('a refund Stripe refuses stays visible: pending, then failed with payment.refund_failed', async () => {
    const { reservation, token } = await book(t, prepaidStay(), { payment: { token: 'pm_card_visa' } });
    stripe.refundFailure = { status: 503, type: 'api_error', message: 'Stripe is down' };
    assert.equal((await cancel(t, reservation.id, token)).statusCode, 200);
    const state = async () =>
      (
        await t.db.query<Json>(
          `SELECT p.status, p.attempts, p.last_error FROM payments p JOIN reservations r ON r.hotel_id = p.hotel_id AND r.id = p.reservation_id
           WHERE r.code = $1 AND p.kind = 'refund'`,
          [reservation.id],
        )
      ).rows[0];
    assert.equal((await state()).status, 'pending');
    // The attempt made after the commit runs on its own: wait until it has recorded its failure and
    // rescheduled the refund, or it could move next_attempt_at after the line below.
    for (let i = 0; i < 200 && Number((await state()).attempts) < 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(Number((await state()).attempts) >= 1, true, 'the first attempt was recorded');
    stripe.refundFailure = {
      status: 400,
      type: 'invalid_request_error',
      message: 'Charge ch_x has been disputed.',
    };
    // A second back: the worker asks "due by now" with a JavaScript Date, whole milliseconds, and
    // the server's now() has microseconds, so a row due at now() could read as due a moment later.
    await t.db.query(
      `UPDATE payments SET next_attempt_at = now() - interval '1 second' WHERE status = 'pending'`,
    );
    await t.runtime.paymentWorker.runOnce();
    stripe.refundFailure = null;
    const failed = await state();
    assert.equal(failed.status, 'failed');
    assert.match(failed.last_error, /disputed/);
    const { rows } = await t.db.query<Json>(
      `SELECT data FROM events WHERE type = 'payment.refund_failed' AND data->'reservation'->>'id' = $1`,
      [reservation.id],
    );
    assert.equal(rows.length, 1);
    assert.match(rows[0].data.payment.reason, /disputed/);
  });

  it('sends only what Stripe’s OpenAPI document allows, and never logs a key', () => {
    assert.deepEqual(stripe.violations, []);
    const logs = t.logs.join('\n');
    for (const secret of [stripe.secretKey, stripe.webhookSecret]) assert.ok(!logs.includes(secret));
  });
});
