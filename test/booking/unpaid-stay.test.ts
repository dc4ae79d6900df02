import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  addDays,
  assertProblem,
  type Json,
  localToday,
  modify,
  quoteOk,
  reloadHotel,
  requestQuote,
  reserve,
  roomsLeft,
  search,
  startBookingApp,
} from './helpers.ts';

// Unpaid hoarding (API.md 6, rule `unpaid_stay`): a rate plan that takes no payment at booking
// (`prepayment: none`) sells at most `maxUnpaidNights` nights (default 30); a prepaid plan is not
// limited. Search, quote, reservation and change all answer it as `restriction_window`.

const hotels = {
  /** The default limit: 30 nights. */
  plain: makeHotel({ maxDaysBeforeArrival: 500 }),
  /** Its own limit, lowered between a quote and its reservation. */
  own: makeHotel({ maxDaysBeforeArrival: 500, maxUnpaidNights: 10 }),
};

let t: TestApp;
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
const T = (days: number) => addDays(today, days);
before(async () => {
  t = await startBookingApp({ hotels: Object.values(hotels) });
  assert.equal(localToday(t), today);
});
after(() => t.close());

const unpaid = (limit: number) => ({ rule: 'unpaid_stay', maxUnpaidNights: limit, dates: [T(5)] });
/** The restriction fields of an entry, without its sentence (checked to name the limit). */
function details(entry: Json, limit: number) {
  const { message, roomTypeId, roomType, reason, ...rest } = entry;
  assert.match(message, new RegExp(`more than ${limit} nights`));
  assert.equal(reason, 'restricted');
  return rest;
}

describe('unpaid stays (maxUnpaidNights)', () => {
  it('search offers a pay-at-hotel plan up to the limit, past it only prepaid plans', async () => {
    const h = hotels.plain;
    const within = await search(t, { hotelId: h.id, checkIn: T(5), checkOut: T(35), adults: 2 });
    assert.equal(within.statusCode, 200, within.body);
    assert.deepEqual(
      within.json().offers.map((o: Json) => `${o.roomType.id}/${o.ratePlan.id}`),
      ['double/flex', 'double/nonref', 'suite/flex'],
    );

    const over = await search(t, { hotelId: h.id, checkIn: T(5), checkOut: T(36), adults: 2 });
    assert.equal(over.statusCode, 200, over.body);
    const body = over.json();
    assert.deepEqual(
      body.offers.map((o: Json) => `${o.roomType.id}/${o.ratePlan.id}`),
      ['double/nonref'],
    );
    assert.equal(body.unavailable.length, 1);
    assert.equal(body.unavailable[0].roomType.id, 'suite');
    assert.deepEqual(details(body.unavailable[0], 30), unpaid(30));
  });

  it('a quote on a pay-at-hotel plan past the limit is 422 restriction_window; a prepaid one is sold', async () => {
    const h = hotels.plain;
    const stay = { hotelId: h.id, checkIn: T(5), checkOut: T(36), adults: 2, roomTypeId: 'double' };
    const problem = assertProblem(
      await requestQuote(t, { ...stay, ratePlanId: 'flex' }),
      422,
      'restriction_window',
    );
    assert.equal(problem.errors.length, 1);
    assert.equal(problem.errors[0].roomTypeId, 'double');
    assert.deepEqual(details(problem.errors[0], 30), unpaid(30));
    assert.match(problem.detail, /more than 30 nights/);
    await quoteOk(t, { ...stay, ratePlanId: 'nonref' });
    await quoteOk(t, { ...stay, checkOut: T(35), ratePlanId: 'flex' });
  });

  it('a reservation is refused when the limit fell below its quote, taking no rooms', async () => {
    const h = hotels.own;
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn: T(5),
      checkOut: T(15),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const before = await roomsLeft(t, h.id, 'double', T(5), T(15));
    await reloadHotel(t, { ...h, maxUnpaidNights: 7 });
    try {
      const problem = assertProblem(await reserve(t, quote.id), 422, 'restriction_window');
      assert.deepEqual(details(problem.errors[0], 7), unpaid(7));
      assert.equal(await roomsLeft(t, h.id, 'double', T(5), T(15)), before);
    } finally {
      await reloadHotel(t, h);
    }
  });

  it('a change that makes a pay-at-hotel stay longer than the limit is refused and changes nothing', async () => {
    const h = hotels.own;
    const quote = await quoteOk(t, {
      hotelId: h.id,
      checkIn: T(5),
      checkOut: T(15),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const res = await reserve(t, quote.id);
    assert.equal(res.statusCode, 201, res.body);
    const { accessToken, ...reservation } = res.json();
    const longer = await modify(t, reservation.id, accessToken, { checkOut: T(16) });
    const problem = assertProblem(longer, 422, 'restriction_window');
    assert.deepEqual(details(problem.errors[0], 10), unpaid(10));
    const read = await t.inject({
      method: 'GET',
      url: `/api/v1/booking/reservations/${reservation.id}`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(read.json().checkOut, T(15));
    assert.equal(read.json().version, reservation.version);
    // Shorter, or on the prepaid plan, it goes through.
    const shorter = await modify(t, reservation.id, accessToken, { checkOut: T(14) });
    assert.equal(shorter.statusCode, 200, shorter.body);
  });
});
