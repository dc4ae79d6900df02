import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepaidPlan, ROOM_TYPES } from '../../src/catalog/catalog.fixtures.ts';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  assertInvalid,
  assertProblem,
  BOOKING,
  bearer,
  book,
  cancel,
  eur,
  type Json,
  modify,
  type QuoteBody,
  recordingPayments,
  roomsLeft,
  startBookingApp,
  stay,
} from './helpers.ts';

// POST /booking/reservations/{reservation}/cancel (API.md 2.5).

/** The test hotel with one double room (so a release is visible) and a refundable prepaid plan. */
function hotel(): HotelDef {
  const base = makeHotel();
  return {
    ...base,
    roomTypes: [{ ...ROOM_TYPES.double, count: 1 }, { ...ROOM_TYPES.suite }],
    ratePlans: [...base.ratePlans, prepaidPlan({ prices: { double: { base: 11000, includedAdults: 2 } } })],
  };
}

const hotels = {
  free: hotel(),
  freePrepaid: hotel(),
  penalty: hotel(),
  penaltyPrepaid: hotel(),
  nonref: hotel(),
  twice: hotel(),
  bodies: hotel(),
  invalid: hotel(),
  ifMatch: hotel(),
};

const payments = recordingPayments();
let t: TestApp;
before(async () => {
  t = await startBookingApp({ hotels: Object.values(hotels), payments: payments.provider });
});
after(() => t.close());

function doubleStay(hotelId: string, from: number, nights: number, ratePlanId = 'flex'): QuoteBody {
  const { checkIn, checkOut } = stay(t, from, nights);
  return { hotelId, checkIn, checkOut, adults: 2, roomTypeId: 'double', ratePlanId };
}

const seconds = (instant: string | Date) => Math.floor(new Date(instant).getTime() / 1000);

describe('cancel a reservation', () => {
  it('is free before freeCancellationUntil, releases the rooms and fills `cancellation`', async () => {
    const h = hotels.free;
    const body = doubleStay(h.id, 20, 2);
    const { reservation, token } = await book(t, body);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 0);
    const before = seconds(t.clock.now());
    const res = await cancel(t, reservation.id, token, { reason: 'change of plans' });
    const after = seconds(t.clock.now());
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers.etag, '"2"');
    const cancelled = res.json();
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.version, 2);
    assert.equal(cancelled.accessToken, undefined);
    const { cancelledAt, ...rest } = cancelled.cancellation;
    assert.deepEqual(rest, { reason: 'change of plans', fee: eur(0), refund: eur(0) });
    assert.match(cancelledAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.ok(seconds(cancelledAt) >= before && seconds(cancelledAt) <= after, cancelledAt);
    assert.deepEqual(cancelled.payment, { status: 'unpaid', paid: eur(0), due: eur(0) });
    // The stay itself is kept as it was booked.
    for (const field of [
      'checkIn',
      'checkOut',
      'lines',
      'total',
      'guest',
      'cancellationPolicy',
      'createdAt',
    ]) {
      assert.deepEqual(cancelled[field], reservation[field], field);
    }
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 1);
  });

  it('refunds everything paid when a prepaid reservation is cancelled before the deadline', async () => {
    const h = hotels.freePrepaid;
    const body = doubleStay(h.id, 20, 2, 'prepaid');
    const { reservation, token } = await book(t, body, { payment: { token: 'tok_visa' } });
    const total = 2 * 11000 + 800;
    assert.equal(payments.netFor(reservation.id), total);
    const res = await cancel(t, reservation.id, token);
    assert.equal(res.statusCode, 200, res.body);
    const cancelled = res.json();
    assert.deepEqual(cancelled.cancellation.fee, eur(0));
    assert.deepEqual(cancelled.cancellation.refund, eur(total));
    assert.deepEqual(cancelled.payment, { status: 'refunded', paid: eur(0), due: eur(0) });
    assert.equal(payments.netFor(reservation.id), 0);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 1);
  });

  it('charges the penalty (the first penaltyNights nights) after freeCancellationUntil', async () => {
    const h = hotels.penalty;
    // Arrival in 5 days: free until 00:00 hotel time 3 days from now.
    const unpaid = await book(t, doubleStay(h.id, 5, 3));
    const prepaid = await book(t, doubleStay(hotels.penaltyPrepaid.id, 5, 2, 'prepaid'), {
      payment: { token: 'tok_visa' },
    });
    const deadline = Date.parse(unpaid.reservation.cancellationPolicy.freeCancellationUntil);
    t.clock.advanceDays(4);
    assert.ok(t.clock.now().getTime() > deadline);

    const res = await cancel(t, unpaid.reservation.id, unpaid.token, {});
    assert.equal(res.statusCode, 200, res.body);
    const cancelled = res.json();
    assert.deepEqual(cancelled.cancellationPolicy.penalty, eur(12000));
    assert.deepEqual(cancelled.cancellation.fee, eur(12000));
    assert.deepEqual(cancelled.cancellation.refund, eur(0));
    assert.deepEqual(cancelled.payment, { status: 'unpaid', paid: eur(0), due: eur(12000) });

    const total = 2 * 11000 + 800;
    const paidRes = await cancel(t, prepaid.reservation.id, prepaid.token);
    assert.equal(paidRes.statusCode, 200, paidRes.body);
    const paidCancelled = paidRes.json();
    assert.deepEqual(paidCancelled.cancellation.fee, eur(11000));
    assert.deepEqual(paidCancelled.cancellation.refund, eur(total - 11000));
    assert.deepEqual(paidCancelled.payment, { status: 'partially_refunded', paid: eur(11000), due: eur(0) });
    assert.equal(payments.netFor(prepaid.reservation.id), 11000);
  });

  it('charges the whole total for a non-refundable plan', async () => {
    const h = hotels.nonref;
    const body = doubleStay(h.id, 20, 2, 'nonref');
    const { reservation, token } = await book(t, body, { payment: { token: 'tok_visa' } });
    const res = await cancel(t, reservation.id, token);
    assert.equal(res.statusCode, 200, res.body);
    const cancelled = res.json();
    assert.deepEqual(cancelled.cancellation.fee, reservation.total);
    assert.deepEqual(cancelled.cancellation.refund, eur(0));
    assert.deepEqual(cancelled.payment, { status: 'paid', paid: reservation.total, due: eur(0) });
    assert.equal(payments.netFor(reservation.id), reservation.total.amount);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 1);
  });

  it('answers a second cancel with the same reservation: no second fee, refund or release', async () => {
    const h = hotels.twice;
    const body = doubleStay(h.id, 20, 2, 'prepaid');
    const { reservation, token } = await book(t, body, { payment: { token: 'tok_visa' } });
    const first = await cancel(t, reservation.id, token, { reason: 'first' });
    assert.equal(first.statusCode, 200, first.body);
    const refundsAfterFirst = payments.refunds.length;
    // Someone else books the released room in between: a second release would oversell it.
    await book(t, { ...body, ratePlanId: 'flex' });
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 0);

    for (const again of [
      await cancel(t, reservation.id, token, { reason: 'second' }),
      await cancel(t, reservation.id, token),
      await cancel(t, reservation.id, token, {}, { 'if-match': '"1"' }),
    ]) {
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.headers.etag, first.headers.etag);
      assert.deepEqual(again.json(), first.json());
    }
    assert.equal(payments.refunds.length, refundsAfterFirst);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 0);
  });

  it('takes an optional body: none at all, an empty object, or a reason', async () => {
    const h = hotels.bodies;
    const url = (id: string) => `${BOOKING}/reservations/${id}/cancel`;
    const cases: Array<
      [string, (id: string, token: string) => ReturnType<TestApp['inject']>, string | null]
    > = [
      [
        'no body, no content type',
        (id, token) => t.inject({ method: 'POST', url: url(id), headers: bearer(token) }),
        null,
      ],
      [
        'empty body with a JSON content type',
        (id, token) =>
          t.inject({
            method: 'POST',
            url: url(id),
            headers: { ...bearer(token), 'content-type': 'application/json' },
            payload: '',
          }),
        null,
      ],
      ['empty JSON object', (id, token) => cancel(t, id, token, {}), null],
      ['a reason', (id, token) => cancel(t, id, token, { reason: 'flight cancelled' }), 'flight cancelled'],
    ];
    for (const [i, [name, send, reason]] of cases.entries()) {
      const { reservation, token } = await book(t, doubleStay(h.id, 20 + 3 * i, 2));
      const res = await send(reservation.id, token);
      assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
      assert.equal(res.json().status, 'cancelled', name);
      assert.equal(res.json().cancellation.reason, reason, name);
    }
  });

  it('validates the body when there is one, changing nothing', async () => {
    const h = hotels.invalid;
    const body = doubleStay(h.id, 20, 2);
    const { reservation, token } = await book(t, body);
    assertInvalid(await cancel(t, reservation.id, token, { reason: 42 }), '/reason');
    assertInvalid(await cancel(t, reservation.id, token, { reason: 'x'.repeat(501) }), '/reason');
    assertInvalid(await cancel(t, reservation.id, token, { why: 'no' }), '/why');
    assertInvalid(await cancel(t, reservation.id, token, []), '/');
    const malformed = await t.inject({
      method: 'POST',
      url: `${BOOKING}/reservations/${reservation.id}/cancel`,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"reason": ',
    });
    assertInvalid(malformed, '/');
    const text = await t.inject({
      method: 'POST',
      url: `${BOOKING}/reservations/${reservation.id}/cancel`,
      headers: { ...bearer(token), 'content-type': 'text/plain' },
      payload: 'please cancel',
    });
    assertProblem(text, 415, 'unsupported_media_type');
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 0);
    const still = await modify(t, reservation.id, token, { specialRequests: 'still booked' });
    assert.equal(still.json().status, 'confirmed');
    assert.equal(still.json().version, 2);
  });

  it('honours If-Match: a stale version is 412 and the reservation stays confirmed', async () => {
    const h = hotels.ifMatch;
    const body = doubleStay(h.id, 20, 2);
    const { reservation, token } = await book(t, body);
    assert.equal((await modify(t, reservation.id, token, { specialRequests: 'v2' })).statusCode, 200);
    const stale = await cancel(t, reservation.id, token, {}, { 'if-match': '"1"' });
    assertProblem(stale, 412, 'precondition_failed');
    assert.equal(stale.headers.etag, '"2"');
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 0);
    const ok = await cancel(t, reservation.id, token, {}, { 'if-match': '"2"' });
    assert.equal(ok.statusCode, 200, ok.body);
    const cancelled: Json = ok.json();
    assert.equal(cancelled.version, 3);
    assert.equal(ok.headers.etag, '"3"');
  });
});
