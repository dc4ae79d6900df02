import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  addDays,
  assertProblem,
  type Json,
  localToday,
  requestQuote,
  search,
  startBookingApp,
} from './helpers.ts';

// restriction_window (422) and search's `restricted` entries (API.md 2.1 and section 6): every rule,
// with `rule`, its limit where one applies and the dates concerned.

const hotels = {
  /** Restrictions on the suite only: search still offers the double and lists the suite as restricted. */
  suite: makeHotel(),
  /** Restrictions on one rate plan only. */
  plan: makeHotel(),
  /** A short booking window, for every room type. */
  window: makeHotel({ maxDaysBeforeArrival: 100 }),
};

let t: TestApp;
/** Hotel-local today when the app started; every dated restriction is relative to it. */
// Set as the file loads: the cases below are built then, before any hook runs.
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
const T = (days: number) => addDays(today, days);
before(async () => {
  hotels.suite.restrictions = [
    { from: T(30), to: T(31), stopSell: true, roomTypes: ['suite'] },
    { from: T(40), to: T(40), closedToArrival: true, roomTypes: ['suite'] },
    { from: T(50), to: T(50), closedToDeparture: true, roomTypes: ['suite'] },
    { from: T(60), to: T(61), minStay: 3, roomTypes: ['suite'] },
    { from: T(70), to: T(70), maxStay: 2, roomTypes: ['suite'] },
  ];
  hotels.plan.restrictions = [{ from: T(80), to: T(80), stopSell: true, ratePlans: ['nonref'] }];
  t = await startBookingApp({ hotels: Object.values(hotels) });
  assert.equal(localToday(t), today);
});
after(() => t.close());

/** The restriction fields of an entry, without its human message (checked to be a sentence). */
function details(entry: Json) {
  const { message, ...rest } = entry;
  assert.equal(typeof message, 'string');
  assert.ok(message.length > 10, message);
  return rest;
}

const suiteCases = () =>
  [
    {
      rule: 'stop_sell',
      stay: [T(29), T(33)],
      expected: { rule: 'stop_sell', dates: [T(30), T(31)], from: T(30), to: T(31) },
    },
    {
      rule: 'closed_to_arrival',
      stay: [T(40), T(42)],
      expected: { rule: 'closed_to_arrival', dates: [T(40)], from: T(40), to: T(40) },
    },
    {
      rule: 'closed_to_departure',
      stay: [T(48), T(50)],
      expected: { rule: 'closed_to_departure', dates: [T(50)], from: T(50), to: T(50) },
    },
    {
      rule: 'min_stay',
      stay: [T(61), T(63)],
      expected: { rule: 'min_stay', minStay: 3, dates: [T(61)], from: T(60), to: T(61) },
    },
    {
      rule: 'max_stay',
      stay: [T(70), T(73)],
      expected: { rule: 'max_stay', maxStay: 2, dates: [T(70)], from: T(70), to: T(70) },
    },
  ] as const;

describe('restrictions', () => {
  for (const { rule, stay, expected } of suiteCases()) {
    it(`reports ${rule} in search's unavailable[] and as 422 restriction_window on a quote`, async () => {
      const h = hotels.suite;
      const [checkIn, checkOut] = stay;
      const found = await search(t, { hotelId: h.id, checkIn, checkOut, adults: 2 });
      assert.equal(found.statusCode, 200, found.body);
      const body = found.json();
      assert.deepEqual(
        body.offers.map((o: Json) => o.roomType.id),
        ['double', 'double'],
      );
      assert.equal(body.unavailable.length, 1);
      const { roomType, reason, ...restriction } = body.unavailable[0];
      assert.deepEqual([roomType, reason], [{ id: 'suite', name: 'Suite' }, 'restricted']);
      assert.deepEqual(details(restriction), expected);

      const quote = await requestQuote(t, {
        hotelId: h.id,
        checkIn,
        checkOut,
        adults: 2,
        roomTypeId: 'suite',
        ratePlanId: 'flex',
      });
      const problem = assertProblem(quote, 422, 'restriction_window');
      assert.equal(problem.errors.length, 1);
      const { roomTypeId, reason: why, ...entry } = problem.errors[0];
      assert.deepEqual([roomTypeId, why], ['suite', 'restricted']);
      assert.deepEqual(details(entry), expected);
    });
  }

  it('lets the stays around each restriction through', async () => {
    const h = hotels.suite;
    const allowed = [
      [T(28), T(30)], // departs the morning the stop-sell starts
      [T(32), T(34)], // arrives the day after it ends
      [T(39), T(41)], // stays over the closed arrival day
      [T(50), T(52)], // arrives on the closed departure day
      [T(60), T(63)], // exactly the minimum stay
      [T(59), T(61)], // arrives before the minimum-stay period
      [T(70), T(72)], // exactly the maximum stay
    ];
    for (const [checkIn, checkOut] of allowed) {
      const res = await requestQuote(t, {
        hotelId: h.id,
        checkIn: checkIn as string,
        checkOut: checkOut as string,
        adults: 2,
        roomTypeId: 'suite',
        ratePlanId: 'flex',
      });
      assert.equal(res.statusCode, 201, `${checkIn}..${checkOut}: ${res.body}`);
    }
  });

  it('reports booking_window with the limit and the latest arrival bookable today', async () => {
    const h = hotels.window;
    const checkIn = T(101);
    const expected = {
      rule: 'booking_window',
      maxDaysBeforeArrival: 100,
      latestArrival: T(100),
      dates: [checkIn],
    };
    const res = await search(t, { hotelId: h.id, checkIn, checkOut: addDays(checkIn, 2), adults: 2 });
    const problem = assertProblem(res, 422, 'restriction_window');
    assert.deepEqual(
      problem.errors.map((e: Json) => [e.roomTypeId, e.reason]),
      [
        ['double', 'restricted'],
        ['suite', 'restricted'],
      ],
    );
    for (const { roomTypeId, reason, ...entry } of problem.errors) assert.deepEqual(details(entry), expected);
    const quote = await requestQuote(t, {
      hotelId: h.id,
      checkIn,
      checkOut: addDays(checkIn, 2),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assertProblem(quote, 422, 'restriction_window');
    const edge = await search(t, { hotelId: h.id, checkIn: T(100), checkOut: T(102), adults: 2 });
    assert.equal(edge.statusCode, 200, edge.body);
  });

  it('applies a restriction to its rate plans only', async () => {
    const h = hotels.plan;
    const [checkIn, checkOut] = [T(80), T(81)];
    const res = await search(t, { hotelId: h.id, checkIn, checkOut, adults: 2 });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      res.json().offers.map((o: Json) => `${o.roomType.id}/${o.ratePlan.id}`),
      ['double/flex', 'suite/flex'],
    );
    // The double still has an offer, so it is not unavailable.
    assert.deepEqual(res.json().unavailable, []);
    const quote = await requestQuote(t, {
      hotelId: h.id,
      checkIn,
      checkOut,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'nonref',
    });
    const problem = assertProblem(quote, 422, 'restriction_window');
    assert.equal(problem.errors[0].rule, 'stop_sell');
    assert.deepEqual(problem.errors[0].dates, [checkIn]);
  });
});
