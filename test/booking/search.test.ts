import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  addDays,
  assertProblem,
  book,
  eur,
  type Json,
  localMidnightUtc,
  quoteOk,
  roomsLeft,
  search,
  startBookingApp,
  stay,
} from './helpers.ts';

// POST /booking/availability/search (API.md 2.1).

const hotels = {
  example: makeHotel({ name: 'Harbour View' }),
  fewest: makeHotel(),
  sameAsQuote: makeHotel({
    ratePlans: [
      {
        id: 'flex',
        name: 'Flexible',
        refundable: true,
        prepayment: 'none',
        freeCancellationDays: 2,
        penaltyNights: 2,
        prices: {
          double: { base: 12000, includedAdults: 1, extraAdult: 3000, child: 1500 },
          suite: { base: 30000, includedAdults: 2, extraAdult: 4000, child: 2000 },
        },
        // Covers the middle of every stay this file searches (see the test), set below.
        seasons: [],
      },
    ],
    services: [
      { id: 'breakfast', name: 'Breakfast', pricing: 'per_guest_per_night', amount: 1500 },
      { id: 'parking', name: 'Parking', pricing: 'per_night', amount: 2000 },
      { id: 'welcome', name: 'Welcome pack', pricing: 'per_stay', amount: 2500 },
    ],
  }),
  occupancy: makeHotel(),
  soldOut: makeHotel({
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 10, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'suite', name: 'Suite', count: 0, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    ],
  }),
  precedence: makeHotel(),
  restrictedOnly: makeHotel(),
  nothingLeft: makeHotel({
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 1, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'suite', name: 'Suite', count: 0, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    ],
  }),
  defaults: makeHotel(),
};

let t: TestApp;
before(async () => {
  // Dates depend on "today", so the hotels needing dated catalogue entries get them here.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
  const plan = hotels.sameAsQuote.ratePlans[0] as HotelDef['ratePlans'][number];
  plan.seasons = [
    { from: addDays(today, 21), to: addDays(today, 22), prices: { double: { base: 16000, child: 2500 } } },
  ];
  // precedence: double and suite cannot be sold (count 0 via stop-sell below, or no rooms at all).
  hotels.precedence.roomTypes = [
    { id: 'double', name: 'Double Room', count: 0, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
    { id: 'suite', name: 'Suite', count: 0, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    { id: 'family', name: 'Family Room', count: 4, maxAdults: 3, maxChildren: 0, maxOccupancy: 3 },
    { id: 'single', name: 'Single Room', count: 0, maxAdults: 3, maxChildren: 0, maxOccupancy: 3 },
  ];
  hotels.precedence.ratePlans = [
    {
      id: 'flex',
      name: 'Flexible',
      refundable: true,
      prepayment: 'none',
      prices: {
        double: { base: 12000 },
        suite: { base: 30000 },
        family: { base: 20000 },
        single: { base: 8000 },
      },
    },
  ];
  hotels.precedence.restrictions = [
    { from: addDays(today, 10), to: addDays(today, 40), stopSell: true, roomTypes: ['double', 'suite'] },
  ];
  hotels.restrictedOnly.restrictions = [{ from: addDays(today, 10), to: addDays(today, 40), minStay: 3 }];
  t = await startBookingApp({ hotels: Object.values(hotels) });
});
after(() => t.close());

describe('search', () => {
  it('answers one offer per (room type, rate plan) with the contract fields (API.md example)', async () => {
    const h = hotels.example;
    const { checkIn, checkOut } = stay(t, 20, 3);
    const res = await search(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      children: [7],
      rooms: 1,
      services: ['breakfast'],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const body = res.json();
    assert.deepEqual(body.hotel, {
      id: h.id,
      name: 'Harbour View',
      timezone: 'Europe/Lisbon',
      currency: 'EUR',
    });
    assert.equal(body.checkIn, checkIn);
    assert.equal(body.checkOut, checkOut);
    assert.equal(body.nights, 3);
    assert.equal(body.adults, 2);
    assert.deepEqual(body.children, [7]);
    assert.equal(body.rooms, 1);
    assert.deepEqual(body.services, ['breakfast']);
    assert.deepEqual(
      body.offers.map((o: Json) => `${o.roomType.id}/${o.ratePlan.id}`),
      ['double/flex', 'double/nonref', 'suite/flex'],
    );
    assert.deepEqual(body.offers[0], {
      roomType: { id: 'double', name: 'Double Room', maxOccupancy: 3 },
      ratePlan: { id: 'flex', name: 'Flexible', refundable: true, prepayment: 'none' },
      available: 10,
      nightly: [0, 1, 2].map((i) => ({ date: addDays(checkIn, i), amount: eur(13500) })),
      total: eur(55200),
      cancellationPolicy: {
        refundable: true,
        freeCancellationUntil: localMidnightUtc(addDays(checkIn, -2), 'Europe/Lisbon'),
        penalty: eur(13500),
      },
    });
    assert.deepEqual(body.offers[1].ratePlan, {
      id: 'nonref',
      name: 'Non-refundable',
      refundable: false,
      prepayment: 'full',
    });
    assert.deepEqual(body.offers[1].cancellationPolicy, {
      refundable: false,
      freeCancellationUntil: null,
      penalty: body.offers[1].total,
    });
    assert.equal(body.offers[2].available, 2);
    assert.deepEqual(body.unavailable, []);
  });

  it('fills the optional fields with their defaults: children [], rooms 1, services []', async () => {
    const h = hotels.defaults;
    const { checkIn, checkOut } = stay(t, 20, 1);
    const res = await search(t, { hotelId: h.id, checkIn, checkOut, adults: 1 });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual([body.children, body.rooms, body.services], [[], 1, []]);
    // One adult, no services: the room plus one city tax night.
    assert.deepEqual(body.offers[0].total, eur(12000 + 200));
  });

  it('gives as `available` the fewest rooms left over the nights of the stay', async () => {
    const h = hotels.fewest;
    const { checkIn } = stay(t, 20, 3);
    const d = (n: number) => addDays(checkIn, n);
    // Nights d0: 2 sold, d1: 3 sold, d2: 1 sold -> left 8, 7, 9.
    await book(t, {
      hotelId: h.id,
      checkIn: d(0),
      checkOut: d(2),
      adults: 2,
      rooms: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    await book(t, {
      hotelId: h.id,
      checkIn: d(1),
      checkOut: d(3),
      adults: 1,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assert.equal(await roomsLeft(t, h.id, 'double', d(0), d(3)), 7);
    assert.equal(await roomsLeft(t, h.id, 'double', d(0), d(1)), 8);
    assert.equal(await roomsLeft(t, h.id, 'double', d(2), d(3)), 9);
    assert.equal(await roomsLeft(t, h.id, 'double', d(3), d(4)), 10);
    // Every offer of the room type carries the same number, whatever the rate plan.
    const res = await search(t, { hotelId: h.id, checkIn: d(0), checkOut: d(3), adults: 2 });
    const doubles = res.json().offers.filter((o: Json) => o.roomType.id === 'double');
    assert.deepEqual(
      doubles.map((o: Json) => o.available),
      [7, 7],
    );
  });

  it('prices nightly for all rooms together, and its total is exactly what the quote totals', async () => {
    const h = hotels.sameAsQuote;
    // 4 nights with a season on the two middle ones; 2 rooms, uneven party, every kind of service.
    const { checkIn, checkOut } = stay(t, 20, 4);
    const request = {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 3,
      children: [4],
      rooms: 2,
      services: ['breakfast', 'parking', 'welcome'],
    };
    const res = await search(t, request);
    assert.equal(res.statusCode, 200, res.body);
    const offers = res.json().offers;
    assert.equal(offers.length, 2);
    // Double, split 2 adults + 1 child / 1 adult; includedAdults 1: 12000+3000+1500 and 12000; season 16000+3000+2500 and 16000.
    assert.deepEqual(
      offers[0].nightly.map((n: Json) => [n.date, n.amount.amount]),
      [
        [checkIn, 28500],
        [addDays(checkIn, 1), 37500],
        [addDays(checkIn, 2), 37500],
        [addDays(checkIn, 3), 28500],
      ],
    );
    for (const offer of offers) {
      const quote = await quoteOk(t, {
        ...request,
        roomTypeId: offer.roomType.id,
        ratePlanId: offer.ratePlan.id,
      });
      assert.deepEqual(offer.total, quote.total, `${offer.roomType.id}/${offer.ratePlan.id}`);
      assert.deepEqual(offer.cancellationPolicy, quote.cancellationPolicy);
      for (const night of offer.nightly) {
        const roomLines = quote.lines.filter((l: Json) => l.type === 'room' && l.date === night.date);
        assert.equal(
          night.amount.amount,
          roomLines.reduce((s: number, l: Json) => s + l.amount.amount, 0),
        );
      }
    }
    // Penalty: the first two nights (penaltyNights 2), all rooms.
    assert.deepEqual(offers[0].cancellationPolicy.penalty, eur(28500 + 37500));
  });

  it('lists a room type the party does not fit as `occupancy`, while others still offer', async () => {
    const h = hotels.occupancy;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const res = await search(t, { hotelId: h.id, checkIn, checkOut, adults: 3 });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(
      body.offers.map((o: Json) => o.roomType.id),
      ['suite'],
    );
    assert.equal(body.unavailable.length, 1);
    assert.deepEqual(body.unavailable[0].roomType, { id: 'double', name: 'Double Room' });
    assert.equal(body.unavailable[0].reason, 'occupancy');
    assert.equal(typeof body.unavailable[0].message, 'string');
    assert.equal(body.unavailable[0].rule, undefined);
  });

  it('lists a room type without enough rooms as `sold_out`', async () => {
    const h = hotels.soldOut;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const res = await search(t, { hotelId: h.id, checkIn, checkOut, adults: 2 });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(
      body.offers.map((o: Json) => `${o.roomType.id}/${o.ratePlan.id}`),
      ['double/flex', 'double/nonref'],
    );
    assert.deepEqual(
      body.unavailable.map((u: Json) => [u.roomType.id, u.reason]),
      [['suite', 'sold_out']],
    );
    // More rooms than left is sold out too.
    const many = await search(t, { hotelId: h.id, checkIn, checkOut, adults: 11, rooms: 11 });
    const errors = assertProblem(many, 409, 'no_availability').errors;
    assert.deepEqual(
      errors.map((e: Json) => [e.roomTypeId, e.reason]),
      [
        ['double', 'sold_out'],
        ['suite', 'sold_out'],
      ],
    );
  });

  it('gives the first applicable reason in the order occupancy, restricted, sold_out', async () => {
    const h = hotels.precedence;
    // double: too small for 3 adults, stop-sold and without rooms -> occupancy.
    // suite: fits, stop-sold and without rooms -> restricted. single: fits, no rooms -> sold_out.
    const { checkIn, checkOut } = stay(t, 20, 2);
    const res = await search(t, { hotelId: h.id, checkIn, checkOut, adults: 3 });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(
      body.offers.map((o: Json) => o.roomType.id),
      ['family'],
    );
    assert.deepEqual(
      body.unavailable.map((u: Json) => [u.roomType.id, u.reason]),
      [
        ['double', 'occupancy'],
        ['suite', 'restricted'],
        ['single', 'sold_out'],
      ],
    );
    const suite = body.unavailable[1];
    assert.equal(suite.rule, 'stop_sell');
    assert.deepEqual(suite.dates, [checkIn, addDays(checkIn, 1)]);
  });

  it('answers 422 restriction_window when no offer exists and a room type is restricted', async () => {
    const h = hotels.precedence;
    // 4 adults fit only the (stop-sold) suite: no offer at all, and restricted decides the status.
    const { checkIn, checkOut } = stay(t, 20, 2);
    const res = await search(t, { hotelId: h.id, checkIn, checkOut, adults: 4 });
    const body = assertProblem(res, 422, 'restriction_window');
    assert.deepEqual(
      body.errors.map((e: Json) => [e.roomTypeId, e.reason, e.rule]),
      [
        ['double', 'occupancy', undefined],
        ['suite', 'restricted', 'stop_sell'],
        ['family', 'occupancy', undefined],
        ['single', 'occupancy', undefined],
      ],
    );
    for (const e of body.errors) assert.equal(typeof e.message, 'string');
  });

  it('answers 422 restriction_window when every room type is restricted (min stay)', async () => {
    const h = hotels.restrictedOnly;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const body = assertProblem(
      await search(t, { hotelId: h.id, checkIn, checkOut, adults: 2 }),
      422,
      'restriction_window',
    );
    assert.deepEqual(
      body.errors.map((e: Json) => [e.roomTypeId, e.reason, e.rule, e.minStay]),
      [
        ['double', 'restricted', 'min_stay', 3],
        ['suite', 'restricted', 'min_stay', 3],
      ],
    );
  });

  it('answers 409 no_availability when no offer exists and nothing is restricted', async () => {
    const h = hotels.nothingLeft;
    const { checkIn, checkOut } = stay(t, 20, 2);
    await book(t, { hotelId: h.id, checkIn, checkOut, adults: 1, roomTypeId: 'double', ratePlanId: 'flex' });
    // double: sold out; suite: no rooms at all.
    const soldOut = assertProblem(
      await search(t, { hotelId: h.id, checkIn, checkOut, adults: 2 }),
      409,
      'no_availability',
    );
    assert.deepEqual(
      soldOut.errors.map((e: Json) => [e.roomTypeId, e.reason]),
      [
        ['double', 'sold_out'],
        ['suite', 'sold_out'],
      ],
    );
    // 5 adults fit no room type (1 room): occupancy everywhere is 409, not 422.
    const tooMany = assertProblem(
      await search(t, {
        hotelId: h.id,
        checkIn: addDays(checkIn, 5),
        checkOut: addDays(checkIn, 6),
        adults: 6,
      }),
      409,
      'no_availability',
    );
    assert.deepEqual(
      tooMany.errors.map((e: Json) => [e.roomTypeId, e.reason]),
      [
        ['double', 'occupancy'],
        ['suite', 'occupancy'],
      ],
    );
  });

  it('does not hold rooms: searching leaves availability as it was', async () => {
    const h = hotels.defaults;
    const { checkIn, checkOut } = stay(t, 30, 2);
    for (let i = 0; i < 3; i++) await search(t, { hotelId: h.id, checkIn, checkOut, adults: 2 });
    assert.equal(await roomsLeft(t, h.id, 'suite', checkIn, checkOut), 2);
  });
});
