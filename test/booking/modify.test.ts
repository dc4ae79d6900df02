import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepaidPlan } from '../../src/catalog/catalog.fixtures.ts';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  addDays,
  assertInvalid,
  assertLinesAddUp,
  assertProblem,
  book,
  cancel,
  eur,
  GUEST,
  type Json,
  localMidnightUtc,
  localToday,
  modify,
  nightlyLeft,
  type QuoteBody,
  quoteOk,
  recordingPayments,
  reloadHotel,
  roomsLeft,
  startBookingApp,
  stay,
} from './helpers.ts';

// PATCH /booking/reservations/{reservation} (API.md 2.4).

type RatePlanDef = HotelDef['ratePlans'][number];

/** The test hotel plus a refundable prepaid plan, so prepaid stays can be changed. */
function hotel(overrides: Partial<HotelDef> = {}): HotelDef {
  const base = makeHotel(overrides);
  const prepaid: RatePlanDef = prepaidPlan({
    prices: {
      double: { base: 11000, includedAdults: 2, extraAdult: 3000, child: 1500 },
      suite: { base: 28000, includedAdults: 2, extraAdult: 4000, child: 2000 },
    },
  });
  return { ...base, ratePlans: [...base.ratePlans, prepaid], ...overrides };
}

const twoDoubles = (overrides: Partial<HotelDef> = {}) =>
  hotel({
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 2, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'suite', name: 'Suite', count: 2, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    ],
    ...overrides,
  });

const hotels = {
  dates: twoDoubles(),
  current: hotel(),
  party: hotel(),
  rooms: twoDoubles(),
  roomType: twoDoubles(),
  ratePlan: hotel(),
  services: hotel(),
  guest: hotel(),
  ifMatch: hotel(),
  nonref: hotel(),
  soldOut: hotel({
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 1, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'suite', name: 'Suite', count: 2, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    ],
  }),
  prepaidRise: hotel(),
  prepaidFall: hotel(),
  restricted: hotel(),
  invalid: hotel(),
  cancelled: hotel(),
  inHouse: hotel(),
};

const payments = recordingPayments();
let t: TestApp;
before(async () => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
  hotels.restricted.restrictions = [
    { from: addDays(today, 40), to: addDays(today, 40), closedToArrival: true },
    { from: addDays(today, 50), to: addDays(today, 50), minStay: 3 },
  ];
  t = await startBookingApp({ hotels: Object.values(hotels), payments: payments.provider });
});
after(() => t.close());

function doubleStay(hotelId: string, from = 20, nights = 3, ratePlanId = 'flex'): QuoteBody {
  const { checkIn, checkOut } = stay(t, from, nights);
  return { hotelId, checkIn, checkOut, adults: 2, roomTypeId: 'double', ratePlanId };
}

const roomLines = (r: Json) => r.lines.filter((l: Json) => l.type === 'room');

describe('modify a reservation', () => {
  it('moves the dates: re-priced, old nights released, new nights taken, version and ETag incremented', async () => {
    const h = hotels.dates;
    const { checkIn } = stay(t, 20, 3);
    const d = (n: number) => addDays(checkIn, n);
    const { reservation, token } = await book(t, doubleStay(h.id, 20, 3));
    assert.deepEqual(await nightlyLeft(t, h.id, 'double', d(0), 5), [1, 1, 1, 2, 2]);

    const res = await modify(t, reservation.id, token, { checkIn: d(1), checkOut: d(5) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers.etag, '"2"');
    const changed = res.json();
    assert.equal(changed.version, 2);
    assert.equal(changed.id, reservation.id);
    assert.equal(changed.accessToken, undefined);
    assert.deepEqual([changed.checkIn, changed.checkOut, changed.nights], [d(1), d(5), 4]);
    assert.deepEqual(
      roomLines(changed).map((l: Json) => l.date),
      [d(1), d(2), d(3), d(4)],
    );
    assertLinesAddUp(changed);
    assert.deepEqual(changed.total, eur(4 * 12000 + 4 * 2 * 200));
    assert.deepEqual(changed.payment, { status: 'unpaid', paid: eur(0), due: changed.total });
    assert.equal(changed.cancellationPolicy.freeCancellationUntil, localMidnightUtc(d(-1), 'Europe/Lisbon'));
    assert.equal(changed.createdAt, reservation.createdAt);
    assert.ok(changed.updatedAt >= reservation.updatedAt);
    assert.deepEqual(await nightlyLeft(t, h.id, 'double', d(0), 6), [2, 1, 1, 1, 1, 2]);

    const again = await modify(t, reservation.id, token, { checkOut: d(4) });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.headers.etag, '"3"');
    assert.equal(again.json().version, 3);
    assert.deepEqual(await nightlyLeft(t, h.id, 'double', d(0), 6), [2, 1, 1, 1, 2, 2]);
  });

  it('re-prices a stay change at current prices, but a guest-only change keeps the booked price', async () => {
    const h = hotels.current;
    const { reservation, token } = await book(t, doubleStay(h.id, 20, 2));
    assert.deepEqual(reservation.total, eur(2 * 12000 + 800));
    const dearer = structuredClone(h);
    (dearer.ratePlans[0] as RatePlanDef).prices = {
      ...(dearer.ratePlans[0] as RatePlanDef).prices,
      double: { base: 14000, includedAdults: 2 },
    };
    await reloadHotel(t, dearer);
    try {
      const guestOnly = await modify(t, reservation.id, token, { specialRequests: 'quiet room' });
      assert.equal(guestOnly.statusCode, 200, guestOnly.body);
      assert.deepEqual(guestOnly.json().total, reservation.total);
      assert.deepEqual(guestOnly.json().lines, reservation.lines);

      const res = await modify(t, reservation.id, token, { services: ['parking'] });
      assert.equal(res.statusCode, 200, res.body);
      const changed = res.json();
      assert.deepEqual(
        roomLines(changed).map((l: Json) => l.unitAmount.amount),
        [14000, 14000],
      );
      assert.deepEqual(changed.total, eur(2 * 14000 + 2 * 2000 + 800));
      assert.deepEqual(changed.services, ['parking']);
      assert.equal(changed.specialRequests, 'quiet room');
      assert.equal(changed.version, 3);
    } finally {
      await reloadHotel(t, h);
    }
  });

  it('changes the party, re-pricing it; a party that no longer fits is 409 no_availability', async () => {
    const h = hotels.party;
    const { reservation, token } = await book(t, doubleStay(h.id, 20, 2));
    const res = await modify(t, reservation.id, token, { adults: 1, children: [5] });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json();
    assert.deepEqual([changed.adults, changed.children], [1, [5]]);
    assert.deepEqual(changed.total, eur(2 * (12000 + 1500) + 2 * 200));

    const tooMany = await modify(t, reservation.id, token, { adults: 2, children: [5, 6] });
    const problem = assertProblem(tooMany, 409, 'no_availability');
    assert.deepEqual(
      problem.errors.map((e: Json) => [e.roomTypeId, e.reason]),
      [['double', 'occupancy']],
    );
  });

  it('changes the number of rooms, taking the extra room', async () => {
    const h = hotels.rooms;
    const body = doubleStay(h.id, 20, 2);
    const { reservation, token } = await book(t, body);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 1);
    const res = await modify(t, reservation.id, token, { rooms: 2 });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json();
    assert.equal(changed.rooms, 2);
    assert.deepEqual(
      roomLines(changed).map((l: Json) => [l.quantity, l.unitAmount.amount]),
      [
        [2, 12000],
        [2, 12000],
      ],
    );
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 0);
    // A third room does not exist: refused, two rooms kept.
    assertProblem(await modify(t, reservation.id, token, { rooms: 3, adults: 3 }), 409, 'no_availability');
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 0);
    // Back to one room releases one.
    assert.equal((await modify(t, reservation.id, token, { rooms: 1 })).statusCode, 200);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 1);
  });

  it('changes the room type: the old type released, the new one taken', async () => {
    const h = hotels.roomType;
    const body = doubleStay(h.id, 20, 2);
    const { reservation, token } = await book(t, body);
    const res = await modify(t, reservation.id, token, { roomTypeId: 'suite' });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json();
    assert.deepEqual(changed.roomType, { id: 'suite', name: 'Suite' });
    assert.deepEqual(changed.total, eur(2 * 30000 + 800));
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 2);
    assert.equal(await roomsLeft(t, h.id, 'suite', body.checkIn, body.checkOut), 1);
  });

  it('changes the rate plan; moving to a prepaid plan needs payment.token and charges it', async () => {
    const h = hotels.ratePlan;
    const body = doubleStay(h.id, 20, 2);
    const { reservation, token } = await book(t, body);
    const total = 2 * 11000 + 800;
    assertProblem(await modify(t, reservation.id, token, { ratePlanId: 'prepaid' }), 402, 'payment_required');
    const res = await modify(t, reservation.id, token, {
      ratePlanId: 'prepaid',
      payment: { token: 'tok_visa' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json();
    assert.deepEqual(changed.ratePlan, {
      id: 'prepaid',
      name: 'Pay now, flexible',
      refundable: true,
      prepayment: 'full',
    });
    assert.deepEqual(changed.total, eur(total));
    assert.deepEqual(changed.payment, { status: 'paid', paid: eur(total), due: eur(0) });
    assert.equal(changed.version, 2);
    assert.equal(payments.netFor(reservation.id), total);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 9);
  });

  it('changes the services', async () => {
    const h = hotels.services;
    const { reservation, token } = await book(t, { ...doubleStay(h.id, 20, 2), children: [7] });
    const res = await modify(t, reservation.id, token, { services: ['breakfast', 'parking'] });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json();
    assert.deepEqual(changed.services, ['breakfast', 'parking']);
    assert.deepEqual(
      changed.lines.filter((l: Json) => l.type === 'service').map((l: Json) => [l.code, l.quantity]),
      [
        ['breakfast', 6],
        ['parking', 2],
      ],
    );
    assert.deepEqual(changed.total, eur(2 * 13500 + 6 * 1500 + 2 * 2000 + 800));
    const none = await modify(t, reservation.id, token, { services: [] });
    assert.deepEqual(none.json().total, reservation.total);
  });

  it('updates guest details partially and special requests, each change a new version', async () => {
    const h = hotels.guest;
    const { reservation, token } = await book(t, doubleStay(h.id), { specialRequests: 'late arrival' });
    const email = await modify(t, reservation.id, token, { guest: { email: 'ana.silva@example.org' } });
    assert.equal(email.statusCode, 200, email.body);
    assert.deepEqual(email.json().guest, { ...GUEST, email: 'ana.silva@example.org', language: 'en' });
    assert.equal(email.json().version, 2);
    assert.equal(email.headers.etag, '"2"');
    assert.deepEqual(email.json().total, reservation.total);

    const noPhone = await modify(t, reservation.id, token, {
      guest: { phone: null, lastName: 'Silva Santos' },
    });
    assert.deepEqual(noPhone.json().guest, {
      firstName: 'Ana',
      lastName: 'Silva Santos',
      email: 'ana.silva@example.org',
      language: 'en',
    });
    assert.equal(noPhone.json().version, 3);

    const requests = await modify(t, reservation.id, token, { specialRequests: 'high floor' });
    assert.equal(requests.json().specialRequests, 'high floor');
    const cleared = await modify(t, reservation.id, token, { specialRequests: null });
    assert.equal(cleared.json().specialRequests, null);
    assert.equal(cleared.json().version, 5);
    assertInvalid(await modify(t, reservation.id, token, { guest: { email: 'nope' } }), '/guest/email');
    assertInvalid(await modify(t, reservation.id, token, { guest: { firstName: '' } }), '/guest/firstName');
  });

  it('honours If-Match: the current version passes, a stale one is 412 with the current ETag', async () => {
    const h = hotels.ifMatch;
    const { reservation, token, etag } = await book(t, doubleStay(h.id));
    assert.equal(etag, '"1"');
    const ok = await modify(t, reservation.id, token, { specialRequests: 'one' }, { 'if-match': etag });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.headers.etag, '"2"');

    const stale = await modify(
      t,
      reservation.id,
      token,
      { specialRequests: 'two', checkOut: addDays(reservation.checkOut, 1) },
      { 'if-match': '"1"' },
    );
    assertProblem(stale, 412, 'precondition_failed');
    assert.equal(stale.headers.etag, '"2"');
    // If-Match compares strongly (RFC 9110): a weak tag never matches, even of the current version.
    const weak = await modify(
      t,
      reservation.id,
      token,
      { specialRequests: 'three' },
      { 'if-match': 'W/"2"' },
    );
    assertProblem(weak, 412, 'precondition_failed');
    // Nothing changed: the next change is version 3, with the dates as they were.
    const strong = await modify(
      t,
      reservation.id,
      token,
      { specialRequests: 'three' },
      { 'if-match': 'W/"1", "2"' },
    );
    assert.equal(strong.statusCode, 200, strong.body);
    assert.equal(strong.json().version, 3);
    assert.equal(strong.json().checkOut, reservation.checkOut);
    const any = await modify(t, reservation.id, token, { specialRequests: 'four' }, { 'if-match': '*' });
    assert.equal(any.json().version, 4);
    assert.equal(await roomsLeft(t, h.id, 'double', reservation.checkIn, reservation.checkOut), 9);
  });

  it('refuses stay changes of a non-refundable plan (409 not_modifiable) but changes guest details', async () => {
    const h = hotels.nonref;
    const body = doubleStay(h.id, 20, 2, 'nonref');
    const { reservation, token } = await book(t, body, { payment: { token: 'tok_visa' } });
    for (const patch of [
      { checkOut: addDays(body.checkOut, 1) },
      { adults: 1 },
      { services: ['breakfast'] },
      { ratePlanId: 'flex' },
      { roomTypeId: 'suite' },
      // A mixed change is refused as a whole.
      { guest: { firstName: 'Maria' }, checkIn: addDays(body.checkIn, 1) },
    ]) {
      assertProblem(await modify(t, reservation.id, token, patch), 409, 'not_modifiable');
    }
    const guest = await modify(t, reservation.id, token, {
      guest: { firstName: 'Maria' },
      specialRequests: 'crib',
    });
    assert.equal(guest.statusCode, 200, guest.body);
    const changed = guest.json();
    assert.equal(changed.guest.firstName, 'Maria');
    assert.equal(changed.specialRequests, 'crib');
    assert.equal(changed.version, 2);
    assert.deepEqual(
      [changed.checkIn, changed.checkOut, changed.total],
      [body.checkIn, body.checkOut, reservation.total],
    );
    assert.deepEqual(changed.payment, reservation.payment);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 9);
  });

  it('leaves reservation and inventory exactly as they were when a change is refused (sold out)', async () => {
    const h = hotels.soldOut;
    const { checkIn } = stay(t, 20, 2);
    const d = (n: number) => addDays(checkIn, n);
    const mine = await book(t, { ...doubleStay(h.id), checkIn: d(0), checkOut: d(2) });
    await book(t, { ...doubleStay(h.id), checkIn: d(2), checkOut: d(4) });
    const before = await nightlyLeft(t, h.id, 'double', d(0), 5);
    assert.deepEqual(before, [0, 0, 0, 0, 1]);

    // Extending into the other guest's nights, or shifting onto them: both 409, nothing moves.
    for (const patch of [
      { checkOut: d(3) },
      { checkIn: d(1), checkOut: d(3) },
      { checkIn: d(3), checkOut: d(5) },
    ]) {
      assertProblem(await modify(t, mine.reservation.id, mine.token, patch), 409, 'no_availability');
    }
    assert.deepEqual(await nightlyLeft(t, h.id, 'double', d(0), 5), before);
    const next = await modify(t, mine.reservation.id, mine.token, { specialRequests: 'still here' });
    assert.equal(next.statusCode, 200, next.body);
    const { version, specialRequests, updatedAt, ...rest } = next.json();
    const { version: v1, specialRequests: s1, updatedAt: u1, ...was } = mine.reservation;
    assert.equal(version, 2);
    assert.deepEqual(rest, was);
  });

  it('charges the difference when a prepaid stay gets dearer, and changes nothing without payment', async () => {
    const h = hotels.prepaidRise;
    const body = doubleStay(h.id, 20, 2, 'prepaid');
    const { reservation, token } = await book(t, body, { payment: { token: 'tok_visa' } });
    const total = 2 * 11000 + 800;
    assert.deepEqual(reservation.payment, { status: 'paid', paid: eur(total), due: eur(0) });
    const longer = { checkOut: addDays(body.checkOut, 1) };
    const before = await nightlyLeft(t, h.id, 'double', body.checkIn, 3);

    assertProblem(await modify(t, reservation.id, token, longer), 402, 'payment_required');
    const declined = assertProblem(
      await modify(t, reservation.id, token, { ...longer, payment: { token: 'tok_declined' } }),
      402,
      'payment_failed',
    );
    assert.equal(declined.errors?.[0]?.path, '/payment/token');
    assertInvalid(
      await modify(t, reservation.id, token, { ...longer, payment: { token: 'tok_nope' } }),
      '/payment/token',
    );
    assert.deepEqual(await nightlyLeft(t, h.id, 'double', body.checkIn, 3), before);
    assert.equal(payments.netFor(reservation.id), total);

    const res = await modify(t, reservation.id, token, { ...longer, payment: { token: 'tok_visa' } });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json();
    const newTotal = 3 * 11000 + 1200;
    assert.equal(changed.version, 2, 'the refused attempts did not change the version');
    assert.deepEqual(changed.total, eur(newTotal));
    assert.deepEqual(changed.payment, { status: 'paid', paid: eur(newTotal), due: eur(0) });
    assert.equal(payments.netFor(reservation.id), newTotal);
    assert.deepEqual(
      payments.charges.filter((c) => c.reference === `${reservation.id}/modification`).map((c) => c.amount),
      [newTotal - total],
    );
    assert.deepEqual(await nightlyLeft(t, h.id, 'double', body.checkIn, 3), [9, 9, 9]);
  });

  it('refunds the difference when a prepaid stay gets cheaper (payment partially_refunded)', async () => {
    const h = hotels.prepaidFall;
    const body = doubleStay(h.id, 20, 3, 'prepaid');
    const { reservation, token } = await book(t, body, { payment: { token: 'tok_visa' } });
    const total = 3 * 11000 + 1200;
    const res = await modify(t, reservation.id, token, { checkOut: addDays(body.checkIn, 1) });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json();
    const newTotal = 11000 + 400;
    assert.deepEqual(changed.total, eur(newTotal));
    assert.deepEqual(changed.payment, { status: 'partially_refunded', paid: eur(newTotal), due: eur(0) });
    assert.deepEqual(
      payments.refunds.filter((r) => r.reference === `${reservation.id}/modification`).map((r) => r.amount),
      [total - newTotal],
    );
    assert.equal(payments.netFor(reservation.id), newTotal);
  });

  it('re-checks restrictions on a stay change (422 restriction_window), changing nothing', async () => {
    const h = hotels.restricted;
    const body = doubleStay(h.id, 20, 2);
    const { reservation, token } = await book(t, body);
    const today = localToday(t);
    const arrival = assertProblem(
      await modify(t, reservation.id, token, { checkIn: addDays(today, 40), checkOut: addDays(today, 42) }),
      422,
      'restriction_window',
    );
    assert.deepEqual(
      arrival.errors.map((e: Json) => [e.roomTypeId, e.reason, e.rule, e.dates]),
      [['double', 'restricted', 'closed_to_arrival', [addDays(today, 40)]]],
    );
    const minStay = assertProblem(
      await modify(t, reservation.id, token, { checkIn: addDays(today, 50), checkOut: addDays(today, 52) }),
      422,
      'restriction_window',
    );
    assert.equal(minStay.errors[0].rule, 'min_stay');
    assert.equal(minStay.errors[0].minStay, 3);
    const ok = await modify(t, reservation.id, token, {
      checkIn: addDays(today, 50),
      checkOut: addDays(today, 53),
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().version, 2);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 10);
  });

  it('validates a change like a new stay (400 validation_error with body paths)', async () => {
    const h = hotels.invalid;
    const body = doubleStay(h.id, 20, 2);
    const { reservation, token } = await book(t, body);
    const id = reservation.id;
    assertInvalid(await modify(t, id, token, {}), '/');
    assertInvalid(await modify(t, id, token, { checkOut: body.checkIn }), '/checkOut');
    assertInvalid(await modify(t, id, token, { checkIn: body.checkOut }), '/checkOut');
    assertInvalid(await modify(t, id, token, { checkIn: addDays(localToday(t), -1) }), '/checkIn');
    assertInvalid(await modify(t, id, token, { rooms: 3 }), '/adults');
    assertInvalid(await modify(t, id, token, { roomTypeId: 'penthouse' }), '/roomTypeId');
    assertInvalid(await modify(t, id, token, { ratePlanId: 'nope' }), '/ratePlanId');
    assertInvalid(await modify(t, id, token, { roomTypeId: 'suite', ratePlanId: 'nonref' }), '/ratePlanId');
    assertInvalid(await modify(t, id, token, { services: ['spa'] }), '/services/0');
    assertInvalid(await modify(t, id, token, { services: ['parking', 'parking', 'spa'] }), '/services/2');
    assertInvalid(await modify(t, id, token, { hotelId: h.id }), '/hotelId');
    assertInvalid(await modify(t, id, token, { adults: 0 }), '/adults');
    assertInvalid(await modify(t, id, token, { children: [18] }), '/children/0');
    assertInvalid(await modify(t, id, token, { checkOut: addDays(body.checkIn, 366) }), '/checkOut');
    assertInvalid(await modify(t, id, token, { checkIn: '2027-02-30' }), '/checkIn');
    // Nothing changed.
    const next = await modify(t, id, token, { specialRequests: 'ok' });
    assert.equal(next.json().version, 2);
    assert.equal(await roomsLeft(t, h.id, 'double', body.checkIn, body.checkOut), 9);
  });

  it('answers 409 reservation_cancelled for any change to a cancelled reservation', async () => {
    const h = hotels.cancelled;
    const { reservation, token } = await book(t, doubleStay(h.id));
    assert.equal((await cancel(t, reservation.id, token)).statusCode, 200);
    assertProblem(
      await modify(t, reservation.id, token, { checkOut: addDays(reservation.checkOut, 1) }),
      409,
      'reservation_cancelled',
    );
    assertProblem(
      await modify(t, reservation.id, token, { guest: { firstName: 'Maria' } }),
      409,
      'reservation_cancelled',
    );
    assert.equal(await roomsLeft(t, h.id, 'double', reservation.checkIn, reservation.checkOut), 10);
    // A new quote is unaffected by the cancelled reservation.
    await quoteOk(t, doubleStay(h.id));
  });

  // Moves the test clock a day forward: keep it last, the dated restrictions above use the real today.
  it('lets a guest already in house extend the stay, but not move the arrival into the past', async () => {
    const h = hotels.inHouse;
    const today = localToday(t);
    const { reservation, token } = await book(t, {
      ...doubleStay(h.id),
      checkIn: today,
      checkOut: addDays(today, 2),
    });
    t.clock.advanceDays(1);
    const now = localToday(t);
    assert.equal(now, addDays(today, 1));
    const res = await modify(t, reservation.id, token, { checkOut: addDays(today, 3) });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      [res.json().checkIn, res.json().checkOut, res.json().nights],
      [today, addDays(today, 3), 3],
    );
    assert.deepEqual(await nightlyLeft(t, h.id, 'double', now, 3), [9, 9, 10]);
    assertInvalid(await modify(t, reservation.id, token, { checkIn: addDays(today, -1) }), '/checkIn');
    const shorter = await modify(t, reservation.id, token, { checkOut: addDays(today, 2) });
    assert.equal(shorter.statusCode, 200, shorter.body);
    assert.deepEqual(await nightlyLeft(t, h.id, 'double', now, 3), [9, 10, 10]);
  });
});
