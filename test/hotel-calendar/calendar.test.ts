/**
 * The operator calendar (API.md 7.4) through HTTP: its shape, validation, all-or-nothing PATCHes,
 * rooms never below sold, and that search, quote, reservation and modification see every change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import {
  addDays,
  assertInvalid,
  assertProblem,
  book,
  type Json,
  localToday,
  modify,
  quoteOk,
  reloadHotel,
  requestQuote,
  reserve,
  search,
} from '../booking/helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, makeKey, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

describe('operator calendar', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp();
  });
  after(() => app.t.close());

  /** A fresh hotel of its own, loaded as a catalogue reload would, so tests never share nights. */
  async function freshHotel(overrides: Partial<HotelDef> = {}): Promise<HotelDef> {
    const def = makeHotel(overrides);
    await reloadHotel(app.t, def);
    return def;
  }
  const url = (hotelId: string) => `${OPERATOR}/hotels/${hotelId}/calendar`;
  const read = (hotelId: string, from: string, to: string, key = app.root) =>
    app.t.inject({ method: 'GET', url: `${url(hotelId)}?from=${from}&to=${to}`, headers: auth(key) });
  const patch = (hotelId: string, updates: unknown[], key = app.root) =>
    app.t.inject({ method: 'PATCH', url: url(hotelId), headers: auth(key), payload: { updates } });
  /** A night `n` days after the hotel's today. */
  const night = (n: number) => addDays(localToday(app.t), n);
  /** The first Saturday at least `n` days away. */
  const saturdayAfter = (n: number) => {
    let d = night(n);
    while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 6) d = addDays(d, 1);
    return d;
  };
  const nightOf = (body: Json, roomTypeId: string, date: string) =>
    body.roomTypes.find((r: Json) => r.id === roomTypeId).nights.find((n: Json) => n.date === date);

  it('answers rooms, sold, left, restrictions and prices per selling rate plan, night by night', async () => {
    const hotel = await freshHotel({
      restrictions: [{ from: night(21), to: night(21), minStay: 2, closedToArrival: true }],
    });
    await book(app.t, {
      hotelId: hotel.id,
      checkIn: night(20),
      checkOut: night(22),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const res = await read(hotel.id, night(20), night(21));
    assert.equal(res.statusCode, 200, res.body);
    const open = {
      stopSell: false,
      closedToArrival: false,
      closedToDeparture: false,
      minStay: null,
      maxStay: null,
    };
    const flex = { base: 12000, includedAdults: 2, extraAdult: 3000, child: 1500 };
    const nonref = { base: 10800, includedAdults: 2, extraAdult: 3000, child: 1500 };
    const suite = { base: 30000, includedAdults: 2, extraAdult: 4000, child: 2000 };
    assert.deepEqual(res.json(), {
      hotelId: hotel.id,
      from: night(20),
      to: night(21),
      roomTypes: [
        {
          id: 'double',
          nights: [
            {
              date: night(20),
              rooms: 10,
              sold: 1,
              left: 9,
              external: 0,
              conflicts: 0,
              restrictions: open,
              prices: { flex, nonref },
            },
            {
              date: night(21),
              rooms: 10,
              sold: 1,
              left: 9,
              external: 0,
              conflicts: 0,
              restrictions: { ...open, closedToArrival: true, minStay: 2 },
              prices: { flex, nonref },
            },
          ],
        },
        {
          id: 'suite',
          nights: [
            {
              date: night(20),
              rooms: 2,
              sold: 0,
              left: 2,
              external: 0,
              conflicts: 0,
              restrictions: open,
              prices: { flex: suite },
            },
            {
              date: night(21),
              rooms: 2,
              sold: 0,
              left: 2,
              external: 0,
              conflicts: 0,
              restrictions: { ...open, closedToArrival: true, minStay: 2 },
              prices: { flex: suite },
            },
          ],
        },
      ],
    });
  });

  it('refuses a reversed, too long or malformed range and unknown hotels', async () => {
    const hotel = await freshHotel();
    assertInvalid(await read(hotel.id, night(5), night(4)), '/query/to');
    assertInvalid(await read(hotel.id, night(0), addDays(night(0), 366)), '/query/to');
    assert.equal((await read(hotel.id, night(0), addDays(night(0), 365))).statusCode, 200);
    assert.equal((await read(hotel.id, '2027-02-30', night(4))).statusCode, 400);
    const missing = await app.t.inject({ method: 'GET', url: url(hotel.id), headers: auth(app.root) });
    assert.equal(missing.statusCode, 400, missing.body);
    assertProblem(await read('no-such-hotel', night(1), night(2)), 404, 'not_found');
  });

  it('refuses unknown ids, misplaced fields and empty sets with 400 naming each, changing nothing', async () => {
    const hotel = await freshHotel();
    const from = night(10);
    const to = night(12);
    const before = (await read(hotel.id, from, to)).json();
    const body = assertInvalid(
      await patch(hotel.id, [
        { roomTypeIds: ['double'], from, to, set: { rooms: 5 } },
        { roomTypeIds: ['double', 'penthouse'], from, to, set: { rooms: 5 } },
        { ratePlanIds: ['corporate'], from, to, set: { base: 100 } },
        { ratePlanIds: ['flex'], from, to, set: { stopSell: true } },
        { roomTypeIds: ['suite'], ratePlanIds: ['nonref'], from, to, set: { base: 100 } },
        { from: to, to: from, set: { rooms: 1 } },
        { from, to, set: { minStay: 4, maxStay: 2 } },
      ]),
      '/updates/1/roomTypeIds/1',
      '/updates/2/ratePlanIds/0',
      '/updates/3/ratePlanIds',
      '/updates/4/ratePlanIds/0',
      '/updates/5/to',
      '/updates/6/set/minStay',
    );
    assert.ok(body.errors.length >= 6);
    assertInvalid(
      await patch(hotel.id, [{ from, to, daysOfWeek: [], set: { rooms: 1 } }]),
      '/updates/0/daysOfWeek',
    );
    for (const set of [{}, { rooms: -1 }, { price: 5 }, { stopSell: 'yes' }]) {
      assert.equal((await patch(hotel.id, [{ from, to, set }])).statusCode, 400, JSON.stringify(set));
    }
    assert.equal(
      (await patch(hotel.id, [{ from, to, daysOfWeek: ['fri', 'funday'], set: { rooms: 1 } }])).statusCode,
      400,
    );
    const monday = (() => {
      let d = from;
      while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 1) d = addDays(d, 1);
      return d;
    })();
    assertInvalid(
      await patch(hotel.id, [{ from: monday, to: monday, daysOfWeek: ['sat'], set: { rooms: 1 } }]),
      '/updates/0/daysOfWeek',
    );
    assertInvalid(
      await patch(hotel.id, [
        { from, to, set: { rooms: 1 } },
        { from: addDays(from, 400), to: addDays(from, 401), set: { rooms: 1 } },
      ]),
      '/updates',
    );
    assert.deepEqual((await read(hotel.id, from, to)).json(), before);
  });

  it('applies every update in order in one transaction and answers the calendar of the range touched', async () => {
    const hotel = await freshHotel();
    const saturday = saturdayAfter(14);
    const friday = addDays(saturday, -1);
    const res = await patch(hotel.id, [
      { roomTypeIds: ['double'], from: friday, to: addDays(saturday, 1), set: { rooms: 8, minStay: 2 } },
      { from: friday, to: saturday, daysOfWeek: ['sat'], set: { base: 20000, extraAdult: 5000 } },
      {
        roomTypeIds: ['double'],
        ratePlanIds: ['nonref'],
        from: saturday,
        to: saturday,
        set: { base: 18000 },
      },
      {
        roomTypeIds: ['suite'],
        from: saturday,
        to: saturday,
        set: { stopSell: true, closedToDeparture: true },
      },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.from, friday);
    assert.equal(body.to, addDays(saturday, 1));
    const fri = nightOf(body, 'double', friday);
    assert.deepEqual([fri.rooms, fri.left, fri.restrictions.minStay, fri.prices.flex.base], [8, 8, 2, 12000]);
    const sat = nightOf(body, 'double', saturday);
    assert.deepEqual(sat.prices, {
      flex: { base: 20000, includedAdults: 2, extraAdult: 5000, child: 1500 },
      nonref: { base: 18000, includedAdults: 2, extraAdult: 5000, child: 1500 },
    });
    const suiteSat = nightOf(body, 'suite', saturday);
    assert.deepEqual(
      [
        suiteSat.rooms,
        suiteSat.restrictions.stopSell,
        suiteSat.restrictions.closedToDeparture,
        suiteSat.prices.flex.base,
      ],
      [2, true, true, 20000],
    );
    // Clearing with null gives the night back to the catalogue.
    const cleared = await patch(hotel.id, [
      {
        from: friday,
        to: addDays(saturday, 1),
        set: { rooms: null, minStay: null, base: null, extraAdult: null },
      },
      { from: friday, to: addDays(saturday, 1), set: { stopSell: null, closedToDeparture: null } },
    ]);
    assert.equal(cleared.statusCode, 200, cleared.body);
    const again = nightOf(cleared.json(), 'double', saturday);
    assert.deepEqual([again.rooms, again.restrictions.minStay, again.prices.flex.base], [10, null, 12000]);
    assert.equal(nightOf(cleared.json(), 'suite', saturday).restrictions.stopSell, false);
    const rows = await app.t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM calendar_overrides WHERE hotel_id = $1',
      [hotel.id],
    );
    assert.equal(rows.rows[0]?.n, 0, 'rows with nothing overridden are deleted');
  });

  it('refuses rooms below the rooms sold with 409 naming the room type and nights; nothing changes', async () => {
    const hotel = await freshHotel();
    for (let i = 0; i < 2; i++) {
      await book(app.t, {
        hotelId: hotel.id,
        checkIn: night(30),
        checkOut: night(32),
        adults: 2,
        roomTypeId: 'double',
        ratePlanId: 'flex',
      });
    }
    const before = (await read(hotel.id, night(29), night(33))).json();
    const events = async () =>
      (
        await app.t.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM events WHERE hotel_id = $1 AND type = 'calendar.updated'",
          [hotel.id],
        )
      ).rows[0]?.n;
    const res = await patch(hotel.id, [
      { from: night(29), to: night(33), set: { base: 99900 } },
      { roomTypeIds: ['double'], from: night(29), to: night(33), set: { rooms: 1 } },
    ]);
    const problem = assertProblem(res, 409, 'no_availability');
    assert.equal(problem.errors.length, 1);
    assert.equal(problem.errors[0].roomTypeId, 'double');
    assert.deepEqual(problem.errors[0].dates, [night(30), night(31)]);
    assert.deepEqual((await read(hotel.id, night(29), night(33))).json(), before);
    assert.equal(await events(), 0);
    // Down to exactly the rooms sold is allowed, and is then sold out.
    const ok = await patch(hotel.id, [
      { roomTypeIds: ['double'], from: night(30), to: night(30), set: { rooms: 2 } },
    ]);
    assert.equal(ok.statusCode, 200, ok.body);
    const now = (await read(hotel.id, night(30), night(31))).json();
    assert.deepEqual(
      [nightOf(now, 'double', night(30)).left, nightOf(now, 'double', night(31)).left],
      [0, 8],
    );
    assert.equal(await events(), 1);
    const event = await app.t.db.query<{ data: Json }>(
      "SELECT data FROM events WHERE hotel_id = $1 AND type = 'calendar.updated'",
      [hotel.id],
    );
    assert.deepEqual(event.rows[0]?.data, {
      updates: [{ roomTypeIds: ['double'], from: night(30), to: night(30), set: { rooms: 2 } }],
    });
  });

  it('closing rooms and raising Saturday prices is seen by the next search, quote, reservation and change', async () => {
    const hotel = await freshHotel();
    const saturday = saturdayAfter(21);
    const checkIn = addDays(saturday, -1);
    const checkOut = addDays(saturday, 1);
    const stayBody = { hotelId: hotel.id, checkIn, checkOut, adults: 2 };
    const offer = async () =>
      (await search(app.t, stayBody))
        .json()
        .offers.find((o: Json) => o.roomType.id === 'double' && o.ratePlan.id === 'flex');
    const beforeChange = await offer();
    assert.equal(beforeChange.available, 10);
    const res = await patch(hotel.id, [
      { roomTypeIds: ['double'], from: saturday, to: saturday, set: { rooms: 8 } },
      { from: checkIn, to: checkOut, daysOfWeek: ['sat'], set: { base: 15000 } },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const afterChange = await offer();
    assert.equal(afterChange.available, 8);
    assert.deepEqual(
      afterChange.nightly.map((n: Json) => [n.date, n.amount.amount]),
      [
        [checkIn, 12000],
        [saturday, 15000],
      ],
    );
    const quote = await quoteOk(app.t, { ...stayBody, roomTypeId: 'double', ratePlanId: 'flex' });
    assert.deepEqual(
      quote.lines.filter((l: Json) => l.type === 'room').map((l: Json) => l.unitAmount.amount),
      [12000, 15000],
    );

    // Suites: one left on Saturday: the first booking takes it, the next is refused.
    await patch(hotel.id, [{ roomTypeIds: ['suite'], from: saturday, to: saturday, set: { rooms: 1 } }]);
    const suiteStay = { ...stayBody, roomTypeId: 'suite', ratePlanId: 'flex' };
    const q1 = await quoteOk(app.t, suiteStay);
    const q2 = await quoteOk(app.t, suiteStay);
    assert.equal((await reserve(app.t, q1.id)).statusCode, 201);
    assertProblem(await reserve(app.t, q2.id), 409, 'no_availability');
    assertProblem(await requestQuote(app.t, suiteStay), 409, 'no_availability');
    const cal = (await read(hotel.id, saturday, saturday)).json();
    assert.deepEqual([nightOf(cal, 'suite', saturday).sold, nightOf(cal, 'suite', saturday).left], [1, 0]);

    // More rooms than the catalogue count sell too.
    await patch(hotel.id, [{ roomTypeIds: ['suite'], from: saturday, to: saturday, set: { rooms: 3 } }]);
    assert.equal((await reserve(app.t, (await quoteOk(app.t, suiteStay)).id)).statusCode, 201);

    // A modification is re-priced at the calendar's prices.
    const { reservation, token } = await book(app.t, {
      hotelId: hotel.id,
      checkIn,
      checkOut: saturday,
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    const changed = await modify(app.t, reservation.id, token, { checkOut });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(
      changed
        .json()
        .lines.filter((l: Json) => l.type === 'room')
        .map((l: Json) => l.unitAmount.amount),
      [12000, 15000],
    );
  });

  it('restriction overrides refuse with the restriction codes; lifting a catalogue restriction reopens it', async () => {
    const hotel = await freshHotel({ restrictions: [{ from: night(40), to: night(40), stopSell: true }] });
    const stayOf = (from: number, nights: number) => ({
      hotelId: hotel.id,
      checkIn: night(from),
      checkOut: night(from + nights),
      adults: 2,
      roomTypeId: 'double',
      ratePlanId: 'flex',
    });
    assertProblem(await requestQuote(app.t, stayOf(40, 1)), 422, 'restriction_window');
    await patch(hotel.id, [{ from: night(40), to: night(40), set: { stopSell: false } }]);
    await quoteOk(app.t, stayOf(40, 1));

    await patch(hotel.id, [
      { from: night(42), to: night(42), set: { stopSell: true } },
      { from: night(44), to: night(44), set: { closedToArrival: true } },
      { from: night(46), to: night(46), set: { minStay: 3 } },
      { from: night(56), to: night(56), set: { closedToDeparture: true } },
    ]);
    const { roomTypeId: _r, ratePlanId: _p, ...searchBody } = stayOf(41, 2);
    const stopped = assertProblem(await search(app.t, searchBody), 422, 'restriction_window');
    assert.equal(stopped.errors[0].rule, 'stop_sell');
    assert.deepEqual(stopped.errors[0].dates, [night(42)]);
    const arrival = assertProblem(await requestQuote(app.t, stayOf(44, 1)), 422, 'restriction_window');
    assert.equal(arrival.errors[0].rule, 'closed_to_arrival');
    const minStay = assertProblem(await requestQuote(app.t, stayOf(46, 2)), 422, 'restriction_window');
    assert.deepEqual([minStay.errors[0].rule, minStay.errors[0].minStay], ['min_stay', 3]);
    await quoteOk(app.t, stayOf(46, 3));
    const departure = assertProblem(await requestQuote(app.t, stayOf(55, 1)), 422, 'restriction_window');
    assert.equal(departure.errors[0].rule, 'closed_to_departure');

    // A quote taken before a stop sell cannot become a reservation after it.
    const quote = await quoteOk(app.t, stayOf(50, 2));
    await patch(hotel.id, [
      { roomTypeIds: ['double'], from: night(51), to: night(51), set: { stopSell: true } },
    ]);
    assertProblem(await reserve(app.t, quote.id), 422, 'restriction_window');
    // Nor can a reservation move onto a stopped night.
    const { reservation, token } = await book(app.t, stayOf(52, 1));
    assertProblem(
      await modify(app.t, reservation.id, token, { checkIn: night(51), checkOut: night(52) }),
      422,
      'restriction_window',
    );
  });

  it('keeps overrides over a restart and a catalogue reload, which counts them against rooms sold', async () => {
    const def = await freshHotel();
    const stayOf = (from: number) => ({
      hotelId: def.id,
      checkIn: night(from),
      checkOut: night(from + 1),
      adults: 2,
      roomTypeId: 'suite',
      ratePlanId: 'flex',
    });
    await book(app.t, stayOf(60));
    await book(app.t, stayOf(60));
    await book(app.t, stayOf(61));
    await book(app.t, stayOf(61));
    const set = await patch(def.id, [
      { roomTypeIds: ['suite'], from: night(60), to: night(60), set: { rooms: 3 } },
      { roomTypeIds: ['double'], from: night(62), to: night(62), set: { rooms: 4, base: 9900 } },
    ]);
    assert.equal(set.statusCode, 200, set.body);
    const calendar = async () => (await read(def.id, night(60), night(62))).json();
    const expected = await calendar();

    // Reload with a count of 1 suite: night 61 has 2 sold and no override, so it is refused.
    await assert.rejects(
      reloadHotel(app.t, {
        ...def,
        roomTypes: def.roomTypes.map((r) => (r.id === 'suite' ? { ...r, count: 1 } : r)),
      }),
      (error: Error) => {
        assert.match(
          error.message,
          new RegExp(`suite/count: 1 is below the 2 rooms already sold on ${night(61)}`),
        );
        assert.doesNotMatch(error.message, new RegExp(night(60)));
        return true;
      },
    );
    await patch(def.id, [{ roomTypeIds: ['suite'], from: night(61), to: night(61), set: { rooms: 2 } }]);
    const fewer = {
      ...def,
      roomTypes: def.roomTypes.map((r) => (r.id === 'suite' ? { ...r, count: 1 } : r)),
    };
    await reloadHotel(app.t, fewer);
    const reloaded = await calendar();
    assert.deepEqual(nightOf(reloaded, 'suite', night(60)), nightOf(expected, 'suite', night(60)));
    assert.equal(nightOf(reloaded, 'suite', night(62)).rooms, 1);
    assert.deepEqual(nightOf(reloaded, 'double', night(62)), nightOf(expected, 'double', night(62)));

    // A new app on the same database sees them too.
    await app.t.close();
    app = await startOperatorApp();
    await reloadHotel(app.t, fewer);
    assert.deepEqual(await calendar(), reloaded);
    const offer = (
      await search(app.t, { hotelId: def.id, checkIn: night(62), checkOut: night(63), adults: 2 })
    )
      .json()
      .offers.find((o: Json) => o.roomType.id === 'double' && o.ratePlan.id === 'flex');
    assert.deepEqual([offer.available, offer.nightly[0].amount.amount], [4, 9900]);
  });

  it('a room type removed from the catalogue with future bookings stops selling; the load succeeds', async () => {
    const def = await freshHotel();
    const { reservation, token } = await book(app.t, {
      hotelId: def.id,
      checkIn: night(70),
      checkOut: night(72),
      adults: 2,
      roomTypeId: 'suite',
      ratePlanId: 'flex',
    });
    const withoutSuite = {
      ...def,
      roomTypes: def.roomTypes.filter((r) => r.id !== 'suite'),
      ratePlans: def.ratePlans.map((p) => ({
        ...p,
        prices: Object.fromEntries(Object.entries(p.prices ?? {}).filter(([id]) => id !== 'suite')),
      })),
    };
    await reloadHotel(app.t, withoutSuite);
    const offers = (
      await search(app.t, { hotelId: def.id, checkIn: night(70), checkOut: night(72), adults: 2 })
    ).json().offers;
    assert.ok(offers.every((o: Json) => o.roomType.id !== 'suite'));
    assert.deepEqual(
      (await read(def.id, night(70), night(70))).json().roomTypes.map((r: Json) => r.id),
      ['double'],
    );
    assertInvalid(
      await patch(def.id, [{ roomTypeIds: ['suite'], from: night(70), to: night(70), set: { rooms: 5 } }]),
      '/updates/0/roomTypeIds/0',
    );
    // Reloading again (a restart) still succeeds, and the booking can still be cancelled.
    await reloadHotel(app.t, { ...withoutSuite, name: 'Renamed' });
    const cancelled = await app.t.inject({
      method: 'POST',
      url: `/api/v1/booking/reservations/${reservation.id}/cancel`,
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
  });

  it('needs inventory:read to read and inventory:write to change', async () => {
    const hotel = await freshHotel();
    const reader = await makeKey(app, { scopes: ['inventory:read'] });
    assert.equal((await read(hotel.id, night(1), night(2), reader.key)).statusCode, 200);
    assertProblem(
      await patch(hotel.id, [{ from: night(1), to: night(1), set: { rooms: 1 } }], reader.key),
      403,
      'forbidden',
    );
  });
});
