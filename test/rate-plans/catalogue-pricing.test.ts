import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { CatalogError, parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { addDays, type Json, modify, quoteOk, reserve, search, stay } from '../booking/helpers.ts';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

/** A hotel without a PMS pricing as hotels price (API.md 11.3) in its catalogue file. */
function familyHotel(): HotelDef {
  return makeHotel({
    roomTypes: [
      {
        id: 'double',
        name: 'Double Room',
        count: 5,
        maxAdults: 3,
        maxChildren: 2,
        maxOccupancy: 4,
        standardOccupancy: 2,
      },
    ],
    ratePlans: [
      {
        id: 'family',
        name: 'Family',
        refundable: true,
        prepayment: 'none',
        freeCancellationDays: 1,
        pricing: {
          per: 'person',
          rates: [
            {
              roomTypeId: 'double',
              byGuests: [
                { guests: 1, amount: 10600 },
                { guests: 2, amount: 9600 },
              ],
              extraAdult: 7680,
              children: [
                { maxAge: 3, amount: 0 },
                { minAge: 3, maxAge: 10, amount: 3840 },
                { minAge: 10, amount: 6720 },
              ],
            },
          ],
          bookingRules: [{ from: '2020-01-01', to: '2099-12-31', minStay: 2 }],
          supplements: [
            {
              id: 'cleaning',
              charge: 'per_stay',
              mandatory: true,
              prices: [{ from: '2020-01-01', to: '2099-12-31', amount: 4000 }],
              names: { en: 'Final cleaning', pt: 'Limpeza final', es: 'Limpieza final' },
            },
          ],
          freeNights: { nightsRequired: 7, nightsDiscounted: 1 },
          familyOffer: { maxAge: 6, minChildren: 2, freeChildren: 1 },
          names: { en: 'Family', pt: 'Família', es: 'Familia' },
        },
      },
    ],
    taxes: [],
    services: [],
  });
}

describe('catalogue rate plans priced by occupancy (API.md 11.3)', () => {
  let t: TestApp;
  let hotel: HotelDef;
  before(async () => {
    hotel = familyHotel();
    t = await startTestApp({ hotels: [hotel] });
  });
  after(() => t.close());

  it('search prices per person, children by age, the mandatory supplement included', async () => {
    const res = await search(t, { hotelId: hotel.id, ...stay(t, 10, 3), adults: 2, children: [4] });
    assert.equal(res.statusCode, 200, res.body);
    const offer = res.json().offers[0];
    // (2 × 96 + 38.40) × 3 nights + 40 cleaning
    assert.equal(offer.total.amount, (19200 + 3840) * 3 + 4000);
    assert.deepEqual(
      offer.nightly.map((n: Json) => n.amount.amount),
      [23040, 23040, 23040],
    );
  });

  it('7 nights for 6 and a family offer: the quote lines add up to the total', async () => {
    const body = {
      hotelId: hotel.id,
      ...stay(t, 10, 7),
      adults: 2,
      children: [2, 5],
      roomTypeId: 'double',
      ratePlanId: 'family',
    };
    const quote = await quoteOk(t, body);
    // The child of 2 is free anyway (under 3); the family offer frees the youngest under 6 (2),
    // so the child of 5 pays 38.40; the seventh night is free; cleaning 40 once.
    assert.equal(quote.total.amount, (19200 + 3840) * 6 + 4000);
    assert.equal(quote.plan.freeNights.length, 1);
    assert.equal(quote.plan.freeChildren, 1);
    assert.equal(quote.plan.names.pt, 'Família');
    assert.deepEqual(quote.plan.supplements[0].names.es, 'Limpieza final');
    const sum = quote.lines.reduce((a: number, l: Json) => a + l.amount.amount, 0);
    assert.equal(sum, quote.total.amount);
    assert.ok(
      quote.lines.some(
        (l: Json) => l.type === 'service' && l.code === 'cleaning' && l.amount.amount === 4000,
      ),
    );
    const { roomTypeId: _r, ratePlanId: _p, ...stayOnly } = body;
    const searched = await search(t, stayOnly);
    assert.equal(searched.statusCode, 200, searched.body);
    assert.equal(searched.json().offers[0].total.amount, quote.total.amount, 'search total = quote total');
    const booked = await reserve(t, quote.id);
    assert.equal(booked.statusCode, 201, booked.body);
    assert.equal(booked.json().total.amount, quote.total.amount);
  });

  it('a stay the plan refuses by a booking rule is restriction_window min_stay', async () => {
    const res = await search(t, { hotelId: hotel.id, ...stay(t, 10, 1), adults: 2 });
    assert.equal(res.statusCode, 422, res.body);
    const problem = res.json();
    assert.equal(problem.code, 'restriction_window');
    assert.equal(problem.errors[0].rule, 'min_stay');
    assert.equal(problem.errors[0].minStay, 2);
  });

  it('a modification is priced again under the plan', async () => {
    const quote = await quoteOk(t, {
      hotelId: hotel.id,
      ...stay(t, 20, 2),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'family',
    });
    const booked = await reserve(t, quote.id);
    assert.equal(booked.statusCode, 201, booked.body);
    const { id, accessToken } = booked.json();
    const changed = await modify(t, id, accessToken, { adults: 3 });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().total.amount, (19200 + 7680) * 2 + 4000);
  });
});

describe('catalogue validation of pricing', () => {
  it('names each fault with its path', () => {
    const hotel = familyHotel();
    const plan = hotel.ratePlans[0];
    assert.ok(plan?.pricing);
    plan.pricing.rates.push({
      roomTypeId: 'double',
      from: '2027-01-01',
      to: '2027-01-31',
      byGuests: [{ guests: 2, amount: 1 }],
    });
    plan.pricing.rates.push({ roomTypeId: 'ghost', byGuests: [{ guests: 2, amount: 1 }] });
    assert.throws(
      () => parseCatalog({ hotels: [hotel] }),
      (e: unknown) =>
        e instanceof CatalogError &&
        e.problems.includes('hotels/0/ratePlans/0/pricing/rates/1: overlaps rate 0 of the same room type') &&
        e.problems.includes('hotels/0/ratePlans/0/pricing/rates/2/roomTypeId: unknown room type "ghost"'),
    );
  });
  it('a plan needs prices or pricing', () => {
    const hotel = familyHotel();
    const plan = hotel.ratePlans[0];
    assert.ok(plan);
    delete plan.pricing;
    assert.throws(
      () => parseCatalog({ hotels: [hotel] }),
      (e: unknown) =>
        e instanceof CatalogError &&
        e.problems.includes('hotels/0/ratePlans/0: a rate plan needs "prices" or "pricing"'),
    );
  });
});

describe('catalogue weekday rates and extras (docs/api.md 6.1)', () => {
  let t: TestApp;
  let hotel: HotelDef;
  before(async () => {
    hotel = familyHotel();
    const plan = hotel.ratePlans[0];
    assert.ok(plan?.pricing);
    plan.pricing = {
      per: 'room',
      rates: [
        {
          roomTypeId: 'double',
          days: ['sun', 'mon', 'tue', 'wed', 'thu'],
          byGuests: [{ guests: 2, amount: 10000 }],
        },
        { roomTypeId: 'double', days: ['fri', 'sat'], byGuests: [{ guests: 2, amount: 14000 }] },
      ],
      supplements: [
        {
          id: 'late-checkout',
          charge: 'per_room_per_stay',
          mandatory: false,
          prices: [{ from: '2020-01-01', to: '2099-12-31', amount: 2500 }],
          names: { en: 'Late check-out', pt: 'Saída tardia' },
        },
      ],
    };
    t = await startTestApp({ hotels: [hotel] });
  });
  after(() => t.close());

  it('prices each night at its weekday’s rate; the extra on request', async () => {
    const { checkIn } = stay(t, 10, 1);
    // a full week: five nights at 100 and Friday and Saturday at 140
    const week = { hotelId: hotel.id, checkIn, checkOut: addDays(checkIn, 7), adults: 2 };
    const res = await search(t, week);
    assert.equal(res.statusCode, 200, res.body);
    const offer = res.json().offers[0];
    assert.equal(offer.total.amount, 5 * 10000 + 2 * 14000);
    assert.deepEqual(offer.plan.extras, [
      {
        code: 'late-checkout',
        names: { en: 'Late check-out', pt: 'Saída tardia' },
        amount: { amount: 2500, currency: 'EUR' },
      },
    ]);
    const quote = await quoteOk(t, {
      ...week,
      roomTypeId: 'double',
      ratePlanId: 'family',
      services: ['late-checkout'],
    });
    assert.equal(quote.total.amount, 5 * 10000 + 2 * 14000 + 2500);
  });

  it('refuses rates of one room type sharing a date and a weekday', () => {
    const clash = familyHotel();
    const plan = clash.ratePlans[0];
    assert.ok(plan?.pricing);
    plan.pricing.rates = [
      { roomTypeId: 'double', days: ['fri', 'sat'], byGuests: [{ guests: 2, amount: 1 }] },
      { roomTypeId: 'double', days: ['sat', 'sun'], byGuests: [{ guests: 2, amount: 1 }] },
    ];
    assert.throws(
      () => parseCatalog({ hotels: [clash] }),
      (e: unknown) =>
        e instanceof CatalogError &&
        e.problems.includes('hotels/0/ratePlans/0/pricing/rates/1: overlaps rate 0 of the same room type'),
    );
  });
});
