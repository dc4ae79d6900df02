import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DOUBLE_PRICE, ROOM_TYPES } from '../../src/catalog/catalog.fixtures.ts';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  addDays,
  assertInvalid,
  assertProblem,
  BOOKING,
  bookStay,
  type Json,
  localToday,
  search,
  startBookingApp,
} from './helpers.ts';

// GET /booking/hotels/{hotel}/calendar (API.md 9.1): night by night, what a one-night search shows.

/** A small deterministic generator: the same "random" parties on every run. */
function seeded(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

describe('the price calendar agrees with search night by night', () => {
  let t: TestApp;
  let today: string;
  const hotel: HotelDef = makeHotel({
    roomTypes: [ROOM_TYPES.double, ROOM_TYPES.suite, ROOM_TYPES.family],
    ratePlans: [
      {
        id: 'flex',
        name: 'Flexible',
        refundable: true,
        prepayment: 'none',
        prices: {
          double: DOUBLE_PRICE,
          suite: { base: 30000, includedAdults: 2, extraAdult: 4000, child: 2000 },
          family: { base: 22000, includedAdults: 3, extraAdult: 2500, child: 1000 },
        },
      },
      {
        id: 'nonref',
        name: 'Non-refundable',
        refundable: false,
        prepayment: 'full',
        prices: {
          double: { ...DOUBLE_PRICE, base: 10800 },
          family: { base: 23000, includedAdults: 2, extraAdult: 1000, child: 500 },
        },
      },
    ],
    restrictions: [],
  });
  before(async () => {
    t = await startBookingApp({ hotels: [hotel] });
    today = localToday(t);
    // Seasons and stop-sells on some nights, rooms sold out on others.
    const plan = hotel.ratePlans[0] as Json;
    plan.seasons = [
      {
        from: addDays(today, 10),
        to: addDays(today, 20),
        prices: { double: { base: 15000 }, family: { child: 3000 } },
      },
    ];
    hotel.restrictions = [
      {
        from: addDays(today, 5),
        to: addDays(today, 8),
        stopSell: true,
        roomTypes: ['double'],
        ratePlans: ['nonref'],
      },
      { from: addDays(today, 30), to: addDays(today, 31), stopSell: true },
    ];
    await t.close();
    t = await startBookingApp({ hotels: [hotel] });
    for (let i = 0; i < 2; i++)
      await bookStay(
        t,
        hotel,
        { roomTypeId: 'suite', fromToday: 12, nights: 4, adults: 2 },
        { fromToday: 0, nights: 1, adults: 2 },
      );
    for (let i = 0; i < 3; i++)
      await bookStay(
        t,
        hotel,
        { roomTypeId: 'family', fromToday: 40, nights: 3, adults: 3 },
        { fromToday: 0, nights: 1, adults: 2 },
      );
  });
  after(() => t.close());

  const calendar = (query: string) => t.inject({ url: `${BOOKING}/hotels/${hotel.id}/calendar?${query}` });

  it('answers, for parties of every shape, the lowest nightly price of a one-night search, or null', async () => {
    const random = seeded(39);
    const parties = [
      { adults: 2, children: [] as number[], rooms: 1 },
      { adults: 1, children: [], rooms: 1 },
      { adults: 2, children: [7], rooms: 1 },
      { adults: 3, children: [4, 9], rooms: 1 },
      { adults: 4, children: [], rooms: 2 },
      { adults: 5, children: [2, 12, 16], rooms: 2 },
    ];
    for (const party of parties) {
      const from = addDays(today, random(5));
      const res = await calendar(
        `from=${from}&to=${addDays(from, 60)}&adults=${party.adults}&rooms=${party.rooms}${party.children.length ? `&children=${party.children.join(',')}` : ''}`,
      );
      assert.equal(res.statusCode, 200, res.body);
      const { data } = res.json();
      assert.equal(data.length, 60);
      for (const [i, night] of data.entries()) {
        const date = addDays(from, i);
        assert.equal(night.date, date);
        const found = await search(t, {
          hotelId: hotel.id,
          checkIn: date,
          checkOut: addDays(date, 1),
          ...party,
        });
        const offers: Json[] = found.statusCode === 200 ? found.json().offers : [];
        const lowest = offers.length ? Math.min(...offers.map((o) => o.nightly[0].amount.amount)) : null;
        const at = `${JSON.stringify(party)} ${date}`;
        assert.deepEqual(night.fromPrice, lowest === null ? null : { amount: lowest, currency: 'EUR' }, at);
        assert.equal(night.available, lowest !== null, at);
      }
    }
  });

  it('follows a booking at once: the night sold out turns unavailable', async () => {
    const night = addDays(today, 50);
    const query = `from=${night}&to=${addDays(night, 1)}&adults=4&rooms=1`;
    const before = (await calendar(query)).json().data[0];
    assert.equal(before.available, true);
    // The family room under the flexible plan: 22000 + one adult over the three included.
    assert.deepEqual(before.fromPrice, { amount: 24500, currency: 'EUR' });
    for (let i = 0; i < 2; i++)
      await bookStay(
        t,
        hotel,
        { roomTypeId: 'suite', fromToday: 50, nights: 1, adults: 2 },
        { fromToday: 0, nights: 1, adults: 2 },
      );
    for (let i = 0; i < 4; i++)
      await bookStay(
        t,
        hotel,
        { roomTypeId: 'family', fromToday: 50, nights: 1, adults: 3 },
        { fromToday: 0, nights: 1, adults: 2 },
      );
    const after = (await calendar(query)).json().data[0];
    assert.deepEqual(after, { ...after, available: false, fromPrice: null });
  });
});

describe('the price calendar: rules and refusals', () => {
  let t: TestApp;
  let today: string;
  const hotel = makeHotel({ maxDaysBeforeArrival: 100 });
  before(async () => {
    t = await startBookingApp({ hotels: [hotel] });
    today = localToday(t);
    hotel.restrictions = [
      { from: addDays(today, 3), to: addDays(today, 3), closedToArrival: true },
      { from: addDays(today, 4), to: addDays(today, 4), closedToDeparture: true },
      { from: addDays(today, 5), to: addDays(today, 5), minStay: 3 },
      { from: addDays(today, 6), to: addDays(today, 6), minStay: 4, ratePlans: ['flex'] },
      { from: addDays(today, 6), to: addDays(today, 6), minStay: 2, ratePlans: ['nonref'] },
    ];
    await t.close();
    t = await startBookingApp({ hotels: [hotel] });
  });
  after(() => t.close());

  const calendar = (query: string) => t.inject({ url: `${BOOKING}/hotels/${hotel.id}/calendar?${query}` });

  it('shows closed arrivals and departures, the shortest stay, and defaults to 2 adults in 1 room', async () => {
    const from = addDays(today, -1);
    const res = await calendar(`from=${from}&to=${addDays(today, 8)}`);
    assert.equal(res.statusCode, 200, res.body);
    const data: Json[] = res.json().data;
    assert.equal(data.length, 9);
    // Yesterday: past, so no room and no arrival.
    assert.deepEqual(data[0], {
      date: from,
      available: false,
      fromPrice: null,
      closedToArrival: true,
      closedToDeparture: false,
      minStay: null,
    });
    assert.deepEqual(data[1].fromPrice, { amount: 10800, currency: 'EUR' });
    assert.equal(data[4].closedToArrival, true);
    assert.equal(data[4].available, true);
    assert.equal(data[5].closedToDeparture, true);
    assert.equal(data[6].minStay, 3);
    // Of the plans selling the night, the one asking fewest nights.
    assert.equal(data[7].minStay, 2);
    assert.equal(data[8].minStay, null);
  });

  it('closes arrivals beyond the booking window', async () => {
    const from = addDays(today, 99);
    const data: Json[] = (await calendar(`from=${from}&to=${addDays(from, 4)}`)).json().data;
    assert.deepEqual(
      data.map((n) => n.closedToArrival),
      [false, false, true, true],
    );
  });

  it('takes children as a list or repeated, and refuses bad input with 400 validation_error', async () => {
    const from = addDays(today, 10);
    const to = addDays(from, 2);
    const listed = (await calendar(`from=${from}&to=${to}&adults=1&children=5,9`)).json();
    const repeated = (await calendar(`from=${from}&to=${to}&adults=1&children=5&children=9`)).json();
    assert.deepEqual(listed, repeated);
    assertInvalid(await calendar(`from=${from}&to=${from}`), '/to');
    assertInvalid(await calendar(`from=${from}&to=${addDays(from, 367)}`), '/to');
    assert.equal((await calendar(`from=${from}&to=${addDays(from, 366)}`)).statusCode, 200);
    assert.equal((await calendar(`from=${from}&to=${to}&adults=1&rooms=2`)).statusCode, 400);
    assert.equal((await calendar(`from=${from}&to=${to}&children=18`)).statusCode, 400);
    assert.equal((await calendar(`from=2027-02-30&to=${to}`)).statusCode, 400);
    assert.equal((await calendar(`to=${to}`)).statusCode, 400);
    assert.equal((await calendar(`from=${from}&to=${to}&pets=1`)).statusCode, 400);
    assertProblem(
      await t.inject({ url: `${BOOKING}/hotels/nope/calendar?from=${from}&to=${to}` }),
      404,
      'not_found',
    );
  });
});
