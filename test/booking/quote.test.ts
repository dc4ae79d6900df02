import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ratePlan } from '../../src/catalog/catalog.fixtures.ts';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  addDays,
  assertLinesAddUp,
  assertProblem,
  book,
  eur,
  type Json,
  localMidnightUtc,
  localToday,
  quoteOk,
  requestQuote,
  roomsLeft,
  startBookingApp,
  stay,
} from './helpers.ts';

// POST /booking/quote (API.md 2.2 and the pricing rules of section 6).

type RatePlanDef = HotelDef['ratePlans'][number];

const flex = (overrides: Partial<RatePlanDef> = {}): RatePlanDef => ({ ...ratePlan(), ...overrides });

/** Next year's daylight-saving starts: far enough ahead to be bookable, near enough for the window. */
const dstYear = new Date().getUTCFullYear() + 1;
/** Europe (Lisbon): the last Sunday of March. */
function lastSundayOfMarch(year: number): string {
  const d = new Date(Date.UTC(year, 2, 31));
  d.setUTCDate(31 - d.getUTCDay());
  return d.toISOString().slice(0, 10);
}
/** United States (New York): the second Sunday of March. */
function secondSundayOfMarch(year: number): string {
  const d = new Date(Date.UTC(year, 2, 1));
  d.setUTCDate(1 + ((7 - d.getUTCDay()) % 7) + 7);
  return d.toISOString().slice(0, 10);
}

const hotels = {
  example: makeHotel({ name: 'Harbour View' }),
  split: makeHotel({
    ratePlans: [
      flex({ prices: { double: { base: 12000, includedAdults: 1, extraAdult: 3000, child: 1500 } } }),
    ],
  }),
  seasons: makeHotel({ ratePlans: [flex({ penaltyNights: 2 })] }),
  services: makeHotel({
    services: [
      { id: 'welcome', name: 'Welcome pack', pricing: 'per_stay', amount: 2500 },
      { id: 'parking', name: 'Parking', pricing: 'per_night', amount: 2000 },
      { id: 'cot', name: 'Cot', pricing: 'per_room_per_night', amount: 700 },
      { id: 'breakfast', name: 'Breakfast', pricing: 'per_guest_per_night', amount: 1500 },
    ],
    taxes: [
      { code: 'city_tax', name: 'City tax', type: 'per_adult_per_night', amount: 200 },
      { code: 'cleaning', name: 'Cleaning fee', type: 'per_stay', amount: 1000 },
      { code: 'vat', name: 'VAT', type: 'percent_included', rate: 10 },
    ],
  }),
  lisbon: makeHotel({ maxDaysBeforeArrival: 800 }),
  newYork: makeHotel({
    timezone: 'America/New_York',
    currency: 'USD',
    maxDaysBeforeArrival: 800,
    ratePlans: [flex({ freeCancellationDays: 3 })],
  }),
  sameDay: makeHotel({ ratePlans: [flex({ freeCancellationDays: 0, penaltyNights: 3 })] }),
  small: makeHotel({
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 1, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'suite', name: 'Suite', count: 2, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
    ],
  }),
};

let t: TestApp;
before(async () => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
  // A season covering the 2nd and 3rd nights of the stays the seasons test quotes (from today + 20).
  (hotels.seasons.ratePlans[0] as RatePlanDef).seasons = [
    { from: addDays(today, 21), to: addDays(today, 22), prices: { double: { base: 16000 } } },
    // A later, narrower season replaces only the field it names (the child supplement), on night 3.
    { from: addDays(today, 22), to: addDays(today, 22), prices: { double: { child: 2500 } } },
  ];
  t = await startBookingApp({ hotels: Object.values(hotels) });
});
after(() => t.close());

describe('quote', () => {
  it('prices the API.md example: double, 2 adults + child 7, 3 nights, breakfast -> 55200, VAT 4909', async () => {
    const h = hotels.example;
    const { checkIn, checkOut } = stay(t, 20, 3);
    const before = Math.floor(t.clock.now().getTime() / 1000);
    const res = await requestQuote(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      children: [7],
      rooms: 1,
      services: ['breakfast'],
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const after = Math.ceil(t.clock.now().getTime() / 1000);
    assert.equal(res.statusCode, 201, res.body);
    const { id, expiresAt, ...quote } = res.json();
    assert.match(id, /^q_[0-9a-z]{16,}$/);
    // QUOTE_TTL_SECONDS defaults to 15 minutes; instants are RFC 3339 UTC at whole seconds.
    assert.equal(t.config.quoteTtlSeconds, 900);
    assert.match(expiresAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const expires = Date.parse(expiresAt) / 1000;
    assert.ok(expires >= before + 900 - 1 && expires <= after + 900, expiresAt);
    const room = (date: string) => ({
      type: 'room',
      code: 'double',
      name: 'Double Room',
      date,
      quantity: 1,
      unitAmount: eur(13500),
      amount: eur(13500),
    });
    assert.deepEqual(quote, {
      hotelId: h.id,
      checkIn,
      checkOut,
      nights: 3,
      adults: 2,
      children: [7],
      rooms: 1,
      services: ['breakfast'],
      roomType: { id: 'double', name: 'Double Room' },
      ratePlan: { id: 'flex', name: 'Flexible', refundable: true, prepayment: 'none' },
      lines: [
        room(checkIn),
        room(addDays(checkIn, 1)),
        room(addDays(checkIn, 2)),
        {
          type: 'service',
          code: 'breakfast',
          name: 'Breakfast',
          quantity: 9,
          unitAmount: eur(1500),
          amount: eur(13500),
        },
        {
          type: 'tax',
          code: 'city_tax',
          name: 'City tax',
          quantity: 6,
          unitAmount: eur(200),
          amount: eur(1200),
        },
      ],
      total: eur(55200),
      includedTaxes: [{ code: 'vat', name: 'VAT', amount: eur(4909) }],
      cancellationPolicy: {
        refundable: true,
        freeCancellationUntil: localMidnightUtc(addDays(checkIn, -2), 'Europe/Lisbon'),
        penalty: eur(13500),
      },
    });
  });

  it('gives each distinct per-room price its own line when the party splits unevenly', async () => {
    const h = hotels.split;
    const { checkIn, checkOut } = stay(t, 20, 2);
    // 3 adults + 1 child in 2 rooms: room 1 = 2 adults + the child, room 2 = 1 adult (includedAdults 1).
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 3,
      children: [4],
      rooms: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assertLinesAddUp(quote);
    const rooms = quote.lines.filter((l: Json) => l.type === 'room');
    assert.deepEqual(
      rooms.map((l: Json) => [l.date, l.quantity, l.unitAmount.amount, l.amount.amount]),
      [
        [checkIn, 1, 12000 + 3000 + 1500, 16500],
        [checkIn, 1, 12000, 12000],
        [addDays(checkIn, 1), 1, 16500, 16500],
        [addDays(checkIn, 1), 1, 12000, 12000],
      ],
    );
    // city tax per adult per night; VAT included in rooms.
    assert.deepEqual(quote.total, eur(2 * 28500 + 200 * 3 * 2));
    assert.deepEqual(quote.includedTaxes, [
      { code: 'vat', name: 'VAT', amount: eur(Math.round((57000 * 10) / 110)) },
    ]);
    // Penalty: first night, all rooms.
    assert.deepEqual(quote.cancellationPolicy.penalty, eur(28500));

    // An even split shares one line per night, quantity = the rooms at that price.
    const even = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 6,
      rooms: 3,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assertLinesAddUp(even);
    assert.deepEqual(
      even.lines
        .filter((l: Json) => l.type === 'room')
        .map((l: Json) => [l.date, l.quantity, l.unitAmount.amount]),
      [
        [checkIn, 3, 15000],
        [addDays(checkIn, 1), 3, 15000],
      ],
    );
  });

  it('prices each night by the seasons covering it, even when a season starts mid-stay', async () => {
    const h = hotels.seasons;
    const { checkIn, checkOut } = stay(t, 20, 4);
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      children: [3],
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assertLinesAddUp(quote);
    assert.deepEqual(
      quote.lines.filter((l: Json) => l.type === 'room').map((l: Json) => [l.date, l.unitAmount.amount]),
      [
        [checkIn, 12000 + 1500],
        [addDays(checkIn, 1), 16000 + 1500],
        [addDays(checkIn, 2), 16000 + 2500],
        [addDays(checkIn, 3), 12000 + 1500],
      ],
    );
    // penaltyNights 2: the first two nights.
    assert.deepEqual(quote.cancellationPolicy.penalty, eur(13500 + 17500));
  });

  it('prices every kind of service and of tax, with included taxes reported apart', async () => {
    const h = hotels.services;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 3,
      children: [4],
      rooms: 2,
      // A repeated id counts once.
      services: ['welcome', 'parking', 'cot', 'breakfast', 'breakfast'],
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assertLinesAddUp(quote);
    assert.deepEqual(quote.services, ['welcome', 'parking', 'cot', 'breakfast']);
    const byCode = Object.fromEntries(
      quote.lines
        .filter((l: Json) => l.type !== 'room')
        .map((l: Json) => [l.code, [l.type, l.quantity, l.unitAmount.amount]]),
    );
    assert.deepEqual(byCode, {
      welcome: ['service', 1, 2500], // per_stay
      parking: ['service', 2, 2000], // per_night x 2 nights
      cot: ['service', 4, 700], // per_room_per_night x 2 rooms x 2 nights
      breakfast: ['service', 8, 1500], // per_guest_per_night x 4 guests x 2 nights
      city_tax: ['tax', 6, 200], // per_adult_per_night x 3 adults x 2 nights
      cleaning: ['tax', 1, 1000], // per_stay
    });
    // Split 2 adults + child / 1 adult (includedAdults 2): 13500 + 12000 a night.
    const rooms = 2 * (13500 + 12000);
    const services = 2500 + 4000 + 2800 + 12000;
    assert.deepEqual(quote.total, eur(rooms + services + 1200 + 1000));
    assert.deepEqual(quote.includedTaxes, [
      { code: 'vat', name: 'VAT', amount: eur(Math.round(((rooms + services) * 10) / 110)) },
    ]);
  });

  it('sets freeCancellationUntil at hotel-local midnight across a DST change (Europe/Lisbon)', async () => {
    const h = hotels.lisbon;
    // e.g. 2027: clocks go forward on 2027-03-28; check-in 2027-03-30 minus 2 days = 2027-03-28T00:00 WET.
    const dstDay = lastSundayOfMarch(dstYear);
    const checkIn = addDays(dstDay, 2);
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut: addDays(checkIn, 2),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assert.equal(quote.cancellationPolicy.freeCancellationUntil, `${dstDay}T00:00:00Z`);
    assert.equal(quote.cancellationPolicy.freeCancellationUntil, localMidnightUtc(dstDay, 'Europe/Lisbon'));
  });

  it('sets freeCancellationUntil at hotel-local midnight across a DST change (America/New_York)', async () => {
    const h = hotels.newYork;
    // e.g. 2027: clocks go forward on 2027-03-14; check-in 2027-03-16 minus 3 days = 2027-03-13T00:00 EST (UTC-5).
    const dstDay = secondSundayOfMarch(dstYear);
    const checkIn = addDays(dstDay, 2);
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut: addDays(checkIn, 1),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assert.equal(quote.cancellationPolicy.freeCancellationUntil, `${addDays(dstDay, -1)}T05:00:00Z`);
    assert.deepEqual(quote.total, { amount: 12000 + 400, currency: 'USD' });
    // And in summer time (UTC-4), e.g. a July stay: midnight is 04:00Z.
    const july = `${dstYear}-07-10`;
    const summer = await quoteOk(t, {
      hotelId: h.id,
      checkIn: july,
      checkOut: addDays(july, 1),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assert.equal(summer.cancellationPolicy.freeCancellationUntil, `${dstYear}-07-07T04:00:00Z`);
  });

  it('with freeCancellationDays 0 frees cancellation until check-in midnight; penalty covers penaltyNights', async () => {
    const h = hotels.sameDay;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assert.equal(quote.cancellationPolicy.freeCancellationUntil, localMidnightUtc(checkIn, 'Europe/Lisbon'));
    // penaltyNights 3 on a 2-night stay: both nights, no more.
    assert.deepEqual(quote.cancellationPolicy.penalty, eur(24000));
  });

  it('has no free cancellation on a non-refundable plan, whose penalty is the total', async () => {
    const h = hotels.example;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      services: ['parking'],
      roomTypeId: 'double',
      ratePlanId: 'nonref',
    });
    assertLinesAddUp(quote);
    assert.deepEqual(quote.ratePlan, {
      id: 'nonref',
      name: 'Non-refundable',
      refundable: false,
      prepayment: 'full',
    });
    assert.deepEqual(quote.total, eur(2 * 10800 + 2 * 2000 + 2 * 2 * 200));
    assert.deepEqual(quote.cancellationPolicy, {
      refundable: false,
      freeCancellationUntil: null,
      penalty: quote.total,
    });
  });

  it('answers 409 no_availability when the party does not fit the room type', async () => {
    const h = hotels.example;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const res = await requestQuote(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      children: [3, 5],
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const body = assertProblem(res, 409, 'no_availability');
    assert.deepEqual(
      body.errors.map((e: Json) => [e.roomTypeId, e.reason]),
      [['double', 'occupancy']],
    );
  });

  it('answers 409 no_availability when not enough rooms are left, and does not hold rooms itself', async () => {
    const h = hotels.small;
    const { checkIn, checkOut } = stay(t, 20, 2);
    const body = { hotelId: h.id, checkIn, checkOut, adults: 2, roomTypeId: 'double', ratePlanId: 'flex' };
    // Quotes never hold rooms: two quotes for the last room both succeed.
    await quoteOk(t, body);
    await quoteOk(t, body);
    assert.equal(await roomsLeft(t, h.id, 'double', checkIn, checkOut), 1);
    await book(t, body);
    const res = await requestQuote(t, body);
    const problem = assertProblem(res, 409, 'no_availability');
    assert.deepEqual(
      problem.errors.map((e: Json) => [e.roomTypeId, e.reason]),
      [['double', 'sold_out']],
    );
    // Two suites exist: asking for three is no_availability as well.
    const many = await requestQuote(t, { ...body, adults: 3, rooms: 3, roomTypeId: 'suite' });
    assertProblem(many, 409, 'no_availability');
  });

  it('quotes a stay that starts today, hotel-local', async () => {
    const h = hotels.example;
    const today = localToday(t);
    const ok = await requestQuote(t, {
      hotelId: h.id,
      checkIn: today,
      checkOut: addDays(today, 1),
      adults: 1,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assert.equal(ok.statusCode, 201, ok.body);
  });
});
