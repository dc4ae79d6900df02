import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { prepaidPlan } from '../../src/catalog/catalog.fixtures.ts';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { assertProblem, type Json, quoteOk, reserve, startBookingApp, stay } from '../booking/helpers.ts';
import { FakeStripe } from '../helpers/fake-stripe.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';

/**
 * API.md 4 (issue 32.2): a Stripe answer that shows the service's own setup is wrong (a wrong key, a
 * permission the key lacks), or that Stripe did not answer, is `503` for the guest, logged with the
 * request id, never Stripe's words. A card's decline stays `402 payment_failed`.
 */
const hotel = makeHotel();
hotel.ratePlans.push(
  prepaidPlan({
    name: 'Prepaid flexible',
    prices: { double: { base: 10000, includedAdults: 2, extraAdult: 3000, child: 1500 } },
  }),
);

let t: TestApp;
let wrongKey: TestApp;
const WRONG_KEY = 'sk_test_51WrongKeyOfAnotherAccount9876';
const stripe = new FakeStripe();
let day = 10;
const prepaidStay = (app: TestApp) => ({
  hotelId: hotel.id,
  ...stay(app, day++, 2),
  adults: 2,
  roomTypeId: 'double',
  ratePlanId: 'prepaid',
});

/** The service's log line of a request's failure (the error handler's, with the request id). */
function failureLogged(app: TestApp, requestId: string): Json {
  const line = app.logs
    .flatMap((l) => l.split('\n'))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json)
    .find((l) => l.reqId === requestId && l.level >= 50);
  assert.ok(line, `no error logged for ${requestId}`);
  return line;
}

function assertNoStripeWords(body: string) {
  for (const words of ['Invalid API Key', 'sk_test', 'permissions', 'api_key'])
    assert.ok(!body.includes(words), `"${words}" reached the client: ${body}`);
}

before(async () => {
  await stripe.start();
  t = await startBookingApp({ hotels: [hotel], env: stripe.env() });
  wrongKey = await startBookingApp({
    hotels: [hotel],
    env: { ...stripe.env(), STRIPE_SECRET_KEY: WRONG_KEY },
  });
});
after(async () => {
  await t?.close();
  await wrongKey?.close();
  await stripe.stop();
});

describe('Stripe refusing the service’s setup', () => {
  it('a wrong key: 503 for the guest, nothing booked, logged with the request id, never Stripe’s words', async () => {
    const quote = await quoteOk(wrongKey, prepaidStay(wrongKey));
    const res = await reserve(wrongKey, quote.id, { payment: { token: 'pm_card_visa' } });
    const problem = assertProblem(res, 503, 'service_unavailable');
    assertNoStripeWords(res.body);
    assert.match(problem.detail, /nothing was booked or charged/);
    const logged = failureLogged(wrongKey, problem.requestId);
    assert.equal(logged.err.stripe.type, 'StripeAuthenticationError');
    assert.match(logged.err.stripe.hint, /STRIPE_SECRET_KEY/);
    // Stripe's message masks the key; the key itself is never logged.
    assert.ok(!wrongKey.logs.join('\n').includes(WRONG_KEY));
    // The PaymentIntent sent back after 3-D Secure: the same.
    const again = await reserve(wrongKey, quote.id, { payment: { token: 'pi_afterthreedsecure' } });
    assertProblem(again, 503, 'service_unavailable');
    assertNoStripeWords(again.body);
  });

  for (const [name, failure, retryAfter] of [
    [
      'a permission the key lacks',
      {
        status: 403,
        type: 'invalid_request_error',
        message: 'The provided key does not have the required permissions for this endpoint.',
      },
      false,
    ],
    [
      'a request Stripe refuses for the account',
      {
        status: 400,
        type: 'invalid_request_error',
        code: 'parameter_unknown',
        message: 'Received unknown parameter: foo',
      },
      false,
    ],
    [
      'Stripe’s rate limit',
      {
        status: 429,
        type: 'invalid_request_error',
        code: 'rate_limit',
        message: 'Too many requests hit the API too quickly.',
      },
      true,
    ],
    [
      'Stripe’s own fault',
      { status: 500, type: 'api_error', message: 'Something went wrong on Stripe’s end.' },
      true,
    ],
  ] as const) {
    it(`${name}: 503 service_unavailable${retryAfter ? ' with Retry-After' : ''}, logged, never Stripe’s words`, async () => {
      const quote = await quoteOk(t, prepaidStay(t));
      const before = stripe.succeededCount();
      // Enough for the SDK's own retries of a 5xx.
      stripe.failNext = { count: 3, ...failure };
      const res = await reserve(t, quote.id, { payment: { token: 'pm_card_visa' } });
      stripe.failNext = null;
      const problem = assertProblem(res, 503, 'service_unavailable');
      assertNoStripeWords(res.body);
      assert.ok(!res.body.includes(failure.message));
      assert.equal(res.headers['retry-after'] !== undefined, retryAfter);
      assert.ok(failureLogged(t, problem.requestId).err.stripe.type.startsWith('Stripe'));
      assert.equal(stripe.succeededCount(), before);
      // The same request once Stripe answers again: booked.
      assert.equal((await reserve(t, quote.id, { payment: { token: 'pm_card_visa' } })).statusCode, 201);
    });
  }

  it('a card’s decline stays 402 payment_failed with Stripe’s reason for the cardholder', async () => {
    const quote = await quoteOk(t, prepaidStay(t));
    const problem = assertProblem(
      await reserve(t, quote.id, { payment: { token: 'pm_card_chargeDeclinedInsufficientFunds' } }),
      402,
      'payment_failed',
    );
    assert.equal(problem.errors[0].declineCode, 'insufficient_funds');
  });

  it('no 4xx of a service the handler called reaches the client in its words (error handler)', async () => {
    const app = Fastify({ logger: false });
    await app.register(errorHandler);
    app.get('/upstream', async () => {
      throw Object.assign(new Error('Invalid API Key provided: sk_test_****9876'), { statusCode: 401 });
    });
    const res = await app.inject({ method: 'GET', url: '/upstream' });
    await app.close();
    assert.equal(res.statusCode, 500);
    assert.equal(res.json().code, 'internal_error');
    assertNoStripeWords(res.body);
  });
});
