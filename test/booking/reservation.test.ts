import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  assertInvalid,
  assertProblem,
  book,
  CONFIRMATION_CODE,
  eur,
  GUEST,
  type Json,
  type QuoteBody,
  quoteOk,
  recordingPayments,
  reloadHotel,
  reserve,
  roomsLeft,
  startBookingApp,
  stay,
} from './helpers.ts';

// POST /booking/reservations (API.md 2.3 and the reservation object of 2.6).

const oneDouble = () =>
  makeHotel({
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 1, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'suite', name: 'Suite', count: 2, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    ],
  });

const hotels = {
  created: makeHotel(),
  hashed: makeHotel(),
  prepaid: makeHotel(),
  paymentRequired: makeHotel(),
  declined: makeHotel(),
  badToken: makeHotel(),
  ignored: makeHotel(),
  singleUse: makeHotel(),
  expired: makeHotel(),
  lastRoom: oneDouble(),
  recheck: makeHotel(),
  locked: makeHotel(),
  withdrawn: makeHotel(),
  invalid: makeHotel(),
};

const payments = recordingPayments();
let t: TestApp;
before(async () => {
  t = await startBookingApp({ hotels: Object.values(hotels), payments: payments.provider });
});
after(() => t.close());

const RESERVATION_KEYS = [
  'adults',
  'cancellation',
  'cancellationPolicy',
  'checkIn',
  'checkOut',
  'checkin',
  'children',
  'createdAt',
  'guest',
  'hotelId',
  'id',
  'includedTaxes',
  'lines',
  'nights',
  'payment',
  'ratePlan',
  'roomType',
  'rooms',
  'services',
  'specialRequests',
  'status',
  'stay',
  'total',
  'updatedAt',
  'version',
];

function doubleStay(hotelId: string, from = 20, nights = 3, ratePlanId = 'flex'): QuoteBody {
  const { checkIn, checkOut } = stay(t, from, nights);
  return { hotelId, checkIn, checkOut, adults: 2, roomTypeId: 'double', ratePlanId };
}

describe('create a reservation', () => {
  it('answers 201 with the reservation, an access token, ETag and Location', async () => {
    const h = hotels.created;
    const { checkIn, checkOut } = stay(t, 20, 3);
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      children: [7],
      services: ['breakfast'],
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const res = await reserve(t, quote.id, { specialRequests: 'late arrival' });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.match(body.accessToken, /^rat_[0-9a-z]{26,}$/);
    assert.match(body.id, CONFIRMATION_CODE);
    assert.equal(res.headers.etag, '"1"');
    assert.equal(res.headers.location, `/api/v1/booking/reservations/${body.id}`);
    assert.deepEqual(Object.keys(body).sort(), [...RESERVATION_KEYS, 'accessToken'].sort());
    assert.equal(body.status, 'confirmed');
    assert.equal(body.hotelId, h.id);
    assert.deepEqual(
      [body.checkIn, body.checkOut, body.nights, body.adults, body.children, body.rooms, body.services],
      [checkIn, checkOut, 3, 2, [7], 1, ['breakfast']],
    );
    assert.deepEqual(body.roomType, quote.roomType);
    assert.deepEqual(body.ratePlan, quote.ratePlan);
    assert.deepEqual(body.guest, { ...GUEST, language: 'en' });
    assert.equal(body.specialRequests, 'late arrival');
    assert.deepEqual(body.lines, quote.lines);
    assert.deepEqual(body.total, eur(55200));
    assert.deepEqual(body.includedTaxes, quote.includedTaxes);
    assert.deepEqual(body.cancellationPolicy, quote.cancellationPolicy);
    assert.deepEqual(body.payment, { status: 'unpaid', paid: eur(0), due: eur(55200) });
    assert.equal(body.cancellation, null);
    assert.deepEqual(body.checkin, { status: 'not_started' });
    assert.equal(body.version, 1);
    assert.match(body.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(body.updatedAt, body.createdAt);
    assert.equal(await roomsLeft(t, h.id, 'double', checkIn, checkOut), 9);
  });

  it('stores only a hash of the access token', async () => {
    const h = hotels.hashed;
    const { reservation, token } = await book(t, doubleStay(h.id));
    const { rows } = await t.db.query<Record<string, unknown>>('SELECT * FROM reservations WHERE code = $1', [
      reservation.id,
    ]);
    assert.equal(rows.length, 1);
    const secret = token.slice('rat_'.length);
    for (const [column, value] of Object.entries(rows[0] as Record<string, unknown>)) {
      const forms =
        value instanceof Uint8Array
          ? [
              Buffer.from(value).toString('utf8'),
              Buffer.from(value).toString('hex'),
              Buffer.from(value).toString('base64'),
            ]
          : [JSON.stringify(value) ?? ''];
      for (const form of forms)
        assert.ok(!form.includes(secret), `the raw token is stored in reservations.${column}`);
    }
    assert.ok(!t.logs.some((line) => line.includes(secret)), 'the raw token was logged');
  });

  it('charges a prepaid rate plan at creation: payment paid, nothing due', async () => {
    const h = hotels.prepaid;
    const { reservation } = await book(t, doubleStay(h.id, 20, 2, 'nonref'), {
      payment: { token: 'tok_mastercard' },
    });
    const total = 2 * 10800 + 2 * 2 * 200;
    assert.deepEqual(reservation.total, eur(total));
    assert.deepEqual(reservation.payment, { status: 'paid', paid: eur(total), due: eur(0) });
    // Created, not changed: the version stays 1.
    assert.equal(reservation.version, 1);
    assert.equal(payments.netFor(reservation.id), total);
    assert.deepEqual(
      payments.charges
        .filter((c) => c.reference.startsWith(reservation.id))
        .map((c) => [c.amount, c.currency, c.token]),
      [[total, 'EUR', 'tok_mastercard']],
    );
  });

  it('answers 402 payment_required for a prepaid plan without payment, taking no room', async () => {
    const h = hotels.paymentRequired;
    const body = doubleStay(h.id, 20, 2, 'nonref');
    const quote = await quoteOk(t, body);
    assertProblem(await reserve(t, quote.id), 402, 'payment_required');
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 10);
    // The quote was not consumed: paying now books it.
    const paid = await reserve(t, quote.id, { payment: { token: 'tok_visa' } });
    assert.equal(paid.statusCode, 201, paid.body);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 9);
  });

  for (const token of ['tok_declined', 'tok_insufficient_funds']) {
    it(`answers 402 payment_failed for ${token}: nothing booked, nothing charged`, async () => {
      const h = hotels.declined;
      const body = doubleStay(h.id, token === 'tok_declined' ? 20 : 30, 2, 'nonref');
      const quote = await quoteOk(t, body);
      const netBefore = payments.net();
      const problem = assertProblem(
        await reserve(t, quote.id, { payment: { token } }),
        402,
        'payment_failed',
      );
      assert.equal(problem.errors?.[0]?.path, '/payment/token');
      assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 10);
      assert.equal(payments.net(), netBefore);
      const { rows } = await t.db.query('SELECT 1 FROM reservations WHERE quote_id = $1', [quote.id]);
      assert.equal(rows.length, 0);
      // A good card then books the same quote.
      const retry = await reserve(t, quote.id, { payment: { token: 'tok_visa' } });
      assert.equal(retry.statusCode, 201, retry.body);
    });
  }

  it('answers 400 for a payment token the provider can never accept', async () => {
    const h = hotels.badToken;
    const body = doubleStay(h.id, 20, 2, 'nonref');
    const quote = await quoteOk(t, body);
    assertInvalid(await reserve(t, quote.id, { payment: { token: 'tok_unknown' } }), '/payment/token');
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 10);
  });

  it('ignores payment for a rate plan without prepayment', async () => {
    const h = hotels.ignored;
    const netBefore = payments.net();
    const { reservation } = await book(t, doubleStay(h.id), { payment: { token: 'tok_declined' } });
    assert.equal(reservation.payment.status, 'unpaid');
    assert.deepEqual(reservation.payment.due, reservation.total);
    assert.equal(payments.net(), netBefore);
  });

  it('uses a quote once: a second reservation of it answers 409 quote_already_used', async () => {
    const h = hotels.singleUse;
    const body = doubleStay(h.id);
    const quote = await quoteOk(t, body);
    const first = await reserve(t, quote.id);
    assert.equal(first.statusCode, 201, first.body);
    assertProblem(await reserve(t, quote.id), 409, 'quote_already_used');
    assertProblem(
      await reserve(t, quote.id, { guest: { ...GUEST, firstName: 'Other' } }),
      409,
      'quote_already_used',
    );
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 9);
  });

  it('answers 409 no_availability when the last room went after the quote, taking nothing', async () => {
    const h = hotels.lastRoom;
    const body = doubleStay(h.id);
    const mine = await quoteOk(t, body);
    const theirs = await quoteOk(t, body);
    assert.equal((await reserve(t, theirs.id)).statusCode, 201);
    const problem = assertProblem(await reserve(t, mine.id), 409, 'no_availability');
    assert.equal(problem.errors[0].roomTypeId, 'double');
    assert.equal(problem.errors[0].reason, 'sold_out');
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 0);
  });

  it('re-checks restrictions at booking time (the catalogue changed since the quote)', async () => {
    const h = hotels.recheck;
    const body = doubleStay(h.id);
    const quote = await quoteOk(t, body);
    await reloadHotel(t, {
      ...h,
      restrictions: [{ from: body.checkIn, to: body.checkIn, closedToArrival: true }],
    });
    const problem = assertProblem(await reserve(t, quote.id), 422, 'restriction_window');
    assert.deepEqual(
      problem.errors.map((e: Json) => [e.roomTypeId, e.reason, e.rule, e.dates]),
      [['double', 'restricted', 'closed_to_arrival', [body.checkIn]]],
    );
    await reloadHotel(t, h);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 10);
  });

  it('books at the quoted price although prices changed after the quote', async () => {
    const h = hotels.locked;
    const body = doubleStay(h.id, 20, 2);
    const quote = await quoteOk(t, body);
    const dearer = structuredClone(h);
    const dearerPlan = dearer.ratePlans[0] as (typeof h.ratePlans)[number];
    dearerPlan.prices = { ...dearerPlan.prices, double: { base: 20000 } };
    await reloadHotel(t, dearer);
    try {
      const res = await reserve(t, quote.id);
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(res.json().total, quote.total);
      assert.deepEqual(res.json().lines, quote.lines);
    } finally {
      await reloadHotel(t, h);
    }
  });

  it('answers 409 no_availability (never 500) when the catalogue withdrew the rate plan or room type', async () => {
    const h = hotels.withdrawn;
    const body = doubleStay(h.id, 20, 2);
    const nonref = await quoteOk(t, { ...body, ratePlanId: 'nonref' });
    const suite = await quoteOk(t, { ...body, roomTypeId: 'suite' });
    const reduced = structuredClone(h);
    reduced.ratePlans = reduced.ratePlans.filter((p) => p.id !== 'nonref');
    delete (reduced.ratePlans[0] as (typeof h.ratePlans)[number]).prices?.suite;
    reduced.roomTypes = reduced.roomTypes.filter((r) => r.id !== 'suite');
    await reloadHotel(t, reduced);
    try {
      for (const [quote, roomTypeId] of [
        [nonref, 'double'],
        [suite, 'suite'],
      ] as const) {
        const problem = assertProblem(
          await reserve(t, quote.id, { payment: { token: 'tok_visa' } }),
          409,
          'no_availability',
        );
        assert.deepEqual(
          problem.errors.map((e: Json) => [e.roomTypeId, e.reason]),
          [[roomTypeId, 'sold_out']],
        );
      }
      assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 10);
    } finally {
      await reloadHotel(t, h);
    }
  });

  it('answers 410 quote_expired once QUOTE_TTL_SECONDS have passed', async () => {
    const h = hotels.expired;
    const body = doubleStay(h.id);
    const quote = await quoteOk(t, body);
    const fresh = await quoteOk(t, body);
    t.clock.advance((t.config.quoteTtlSeconds + 1) * 1000);
    assert.ok(t.clock.now().getTime() > Date.parse(quote.expiresAt));
    assertProblem(await reserve(t, quote.id), 410, 'quote_expired');
    assertProblem(await reserve(t, fresh.id), 410, 'quote_expired');
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 10);
  });

  it('validates the body: guest fields, email, unknown fields, unknown quote id', async () => {
    const h = hotels.invalid;
    const quote = await quoteOk(t, doubleStay(h.id));
    assertInvalid(await reserve(t, 'q_doesnotexist'), '/quoteId');
    assertInvalid(
      await reserve(t, quote.id, { guest: { firstName: 'Ana' } }),
      '/guest/lastName',
      '/guest/email',
    );
    assertInvalid(await reserve(t, quote.id, { guest: { ...GUEST, email: 'not-an-email' } }), '/guest/email');
    assertInvalid(await reserve(t, quote.id, { guest: { ...GUEST, firstName: '   ' } }), '/guest/firstName');
    assertInvalid(await reserve(t, quote.id, { guest: { ...GUEST, nickname: 'Ana' } }), '/guest/nickname');
    assertInvalid(await reserve(t, quote.id, { payment: { token: 'tok_visa', cvc: '123' } }), '/payment/cvc');
    const missing = await t.inject({
      method: 'POST',
      url: '/api/v1/booking/reservations',
      payload: { guest: GUEST },
    });
    assertInvalid(missing, '/quoteId');
    // None of that used the quote.
    const ok = await reserve(t, quote.id);
    assert.equal(ok.statusCode, 201, ok.body);
  });
});
