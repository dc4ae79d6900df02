/**
 * Search answers from the in-memory view of the nights with per-pair arrays (each night's
 * stop-sell, restrictions and prices by window index: `stayNights` of hotel-nights.ts), and the
 * price calendar from the same view. Their answers must be exactly those of the straightforward evaluation: every
 * night's restrictions and prices looked up one by one on a fresh read of the database (the view
 * quotes and bookings use, which has no `stayNights`). Thousands of random stays and calendar
 * queries are compared, answer against reference, between random calendar changes and bookings.
 *
 * Seeded: `FUZZ_SEED=<n>` replays a run (the seed is in every failure message);
 * `SEARCH_REFERENCE_STAYS` sets the stays per round (default 800, three rounds).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { QuoteRequest } from '../../src/booking/availability.schemas.ts';
import { noOfferError } from '../../src/booking/commands/availability-problems.ts';
import { searchAnswer } from '../../src/booking/commands/search-availability.ts';
import { evaluate, evaluateForQuote } from '../../src/booking/commands/stay-evaluation.ts';
import { prepareStay } from '../../src/booking/commands/stay-request.ts';
import { nightOffer } from '../../src/booking/rules/night-offer.ts';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { namer } from '../../src/catalog/catalog-names.ts';
import { eachNight, hotelToday } from '../../src/dates/dates.ts';
import { loadHotelNights } from '../../src/hotel-calendar/load-hotel-nights.ts';
import { AppError } from '../../src/infra/http/problems.ts';
import { preferredLanguage } from '../../src/infra/i18n/languages.ts';
import { pricedHotel } from '../../src/rate-plans/priced-hotel.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { addDays, BOOKING, type Json, localToday, requestQuote, reserve, search } from './helpers.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
const STAYS = Number(process.env.SEARCH_REFERENCE_STAYS ?? 800);

/** A small random generator with a seed, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return Math.floor((s / 2 ** 32) * n);
  };
}

/** The demo hotel (seasons, restrictions by room type and plan, services, taxes) under a new id. */
function demoHotel(): HotelDef {
  const demo = JSON.parse(readFileSync(new URL('../../catalog/demo.json', import.meta.url), 'utf8'));
  const def = demo.hotels[0] as HotelDef;
  const { photos: _photos, ...rest } = def as HotelDef & { photos?: unknown };
  return {
    ...(rest as HotelDef),
    id: makeHotel().id,
    roomTypes: def.roomTypes.map((r) => {
      const { photos: _p, ...room } = r as typeof r & { photos?: unknown };
      return room as typeof r;
    }),
  };
}

/** A hotel with an occupancy-priced plan (API.md 9.3) beside a catalogue-priced one. */
function occupancyHotel(): HotelDef {
  const base = makeHotel({ name: 'Occupancy Hotel' });
  return {
    ...base,
    ratePlans: [
      ...base.ratePlans,
      {
        id: 'persons',
        name: 'Per person',
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
        },
      } as HotelDef['ratePlans'][number],
    ],
  };
}

describe('search and the price calendar agree with the straightforward evaluation', () => {
  let app: OperatorApp;
  let hotels: [HotelDef, HotelDef];
  let now: Date;

  before(async () => {
    hotels = [demoHotel(), occupancyHotel()];
    app = await startOperatorApp({ LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' }, hotels);
    // One moment for the answers and their references (free cancellation is as of now).
    now = app.t.clock.now();
    app.t.clock.now = () => new Date(now.getTime());
  });
  after(async () => app?.t.close());

  const ctx = () => ({
    db: app.t.db,
    catalog: app.t.runtime.catalog,
    clock: app.t.clock,
    config: app.t.config,
  });

  /** The answer of the straightforward evaluation, as the route answers it. */
  async function expectedSearch(
    body: Json,
    lang: string | undefined,
  ): Promise<{ status: number; body: Json }> {
    try {
      const { req, hotel, catalogHotel, today } = await prepareStay(ctx(), body, false);
      const evaluation = await evaluate(ctx(), hotel, { ...req, promotion: null }, today, undefined, now);
      if (evaluation.offers.length === 0) throw noOfferError(evaluation.unavailable);
      const result = searchAnswer(hotel, req, evaluation);
      const names = namer(catalogHotel, preferredLanguage(lang));
      return {
        status: 200,
        body: {
          ...result,
          hotel: { ...result.hotel, name: names.hotel(result.hotel.name) },
          offers: result.offers.map((o) => ({
            ...o,
            roomType: names.roomType(o.roomType),
            ratePlan: names.ratePlan(o.ratePlan),
          })),
          unavailable: result.unavailable.map((u) => ({ ...u, roomType: names.roomType(u.roomType) })),
        },
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return {
        status: error.status,
        body: { code: error.code, detail: error.message, errors: error.errors },
      };
    }
  }

  function randomStay(next: (n: number) => number, hotel: HotelDef, today: string): Json {
    // Mostly where the calendar changes are, some anywhere in the booking window and past it.
    const from = next(4) === 0 ? next(520) : next(70);
    const adults = 1 + next(4);
    const children = Array.from({ length: next(4) === 0 ? next(4) : 0 }, () => next(17));
    const services = (hotel.services ?? []).map((s) => s.id).filter(() => next(3) === 0);
    return {
      hotelId: hotel.id,
      checkIn: addDays(today, from),
      checkOut: addDays(today, from + 1 + next(next(5) === 0 ? 30 : 8)),
      adults,
      ...(children.length ? { children } : {}),
      ...(next(3) === 0 ? { rooms: 1 + next(Math.min(3, adults)) } : {}),
      ...(services.length ? { services } : {}),
    };
  }

  async function compareStays(next: (n: number) => number, round: number): Promise<Record<number, number>> {
    const today = localToday(app.t);
    const statuses: Record<number, number> = {};
    for (let i = 0; i < STAYS; i++) {
      const hotel = hotels[next(3) === 0 ? 1 : 0] as HotelDef;
      const body = randomStay(next, hotel, today);
      const lang = [undefined, 'es', 'pt', 'de, en;q=0.5'][next(4)];
      const res = await search(app.t, body, lang ? { 'accept-language': lang } : {});
      const expected = await expectedSearch(body, lang);
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const where = `FUZZ_SEED=${SEED}, round ${round}, stay ${i}: ${JSON.stringify(body)} (${lang ?? 'no language'})`;
      assert.equal(res.statusCode, expected.status, `${where}\n${res.body}`);
      const answered = res.json();
      if (res.statusCode === 200) {
        assert.deepStrictEqual(answered, JSON.parse(JSON.stringify(expected.body)), where);
      } else {
        const { code, detail, errors } = answered;
        assert.deepStrictEqual(
          JSON.parse(JSON.stringify({ code, detail, errors })),
          JSON.parse(JSON.stringify(expected.body)),
          where,
        );
      }
    }
    return statuses;
  }

  async function compareCalendars(next: (n: number) => number, round: number, count: number): Promise<void> {
    const today = localToday(app.t);
    for (let i = 0; i < count; i++) {
      const hotel = hotels[next(3) === 0 ? 1 : 0] as HotelDef;
      const from = addDays(today, next(5) === 0 ? next(480) : next(60) - 2);
      const to = addDays(from, 1 + next(60));
      const adults = 1 + next(4);
      const children = Array.from({ length: next(3) === 0 ? 1 + next(2) : 0 }, () => next(17));
      const rooms = 1 + next(Math.min(2, adults));
      const query = `from=${from}&to=${to}&adults=${adults}&rooms=${rooms}${children.length ? `&children=${children.join(',')}` : ''}`;
      const res = await app.t.inject({
        method: 'GET',
        url: `${BOOKING}/hotels/${hotel.id}/calendar?${query}`,
      });
      const where = `FUZZ_SEED=${SEED}, round ${round}, calendar ${i}: ${hotel.id}?${query}`;
      assert.equal(res.statusCode, 200, `${where}\n${res.body}`);
      const catalogHotel = app.t.runtime.catalog.get(hotel.id);
      assert.ok(catalogHotel);
      const priced = await pricedHotel(app.t.db, catalogHotel, false);
      const nights = await loadHotelNights(app.t.db, catalogHotel, from, to);
      const hotelDay = hotelToday(priced.timezone, now);
      const party = { adults, children, rooms };
      const expected = {
        data: eachNight(from, to).map((night) => {
          const offer = nightOffer(priced, nights, night, party, hotelDay);
          return {
            ...offer,
            fromPrice:
              offer.fromPrice === null ? null : { amount: offer.fromPrice, currency: priced.currency },
          };
        }),
      };
      assert.deepStrictEqual(res.json(), JSON.parse(JSON.stringify(expected)), where);
    }
  }

  /**
   * Quotes' evaluations (from the view on the embedded engine: `evaluateForQuote`) against the
   * straightforward one, for one random (room type, rate plan) of random stays.
   */
  async function compareQuotes(next: (n: number) => number, round: number, count: number): Promise<number> {
    const today = localToday(app.t);
    let offered = 0;
    for (let i = 0; i < count; i++) {
      const hotel = hotels[next(3) === 0 ? 1 : 0] as HotelDef;
      const body: QuoteRequest = {
        ...randomStay(next, hotel, today),
        roomTypeId: hotel.roomTypes[next(hotel.roomTypes.length)]?.id,
        ratePlanId: hotel.ratePlans[next(hotel.ratePlans.length)]?.id,
      };
      const where = `FUZZ_SEED=${SEED}, round ${round}, quote ${i}: ${JSON.stringify(body)}`;
      let prepared: Awaited<ReturnType<typeof prepareStay>>;
      try {
        prepared = await prepareStay(ctx(), body, false);
      } catch (error) {
        if (error instanceof AppError) continue;
        throw error;
      }
      const { req, hotel: priced, catalogHotel, today: day } = prepared;
      const only = { roomTypeId: body.roomTypeId, ratePlanId: body.ratePlanId };
      const stay = { ...req, promotion: null };
      const quoted = await evaluateForQuote(ctx(), priced, catalogHotel, stay, day, only, now);
      const expected = await evaluate(ctx(), priced, stay, day, only, now);
      assert.deepStrictEqual(quoted, expected, where);
      if (quoted.offers.length > 0) offered++;
    }
    return offered;
  }

  /** Random calendar changes (rooms, stop-sell, arrival and departure closures, stay limits, prices) and bookings. */
  async function change(next: (n: number) => number, count: number): Promise<void> {
    const today = localToday(app.t);
    for (let i = 0; i < count; i++) {
      const hotel = hotels[next(3) === 0 ? 1 : 0] as HotelDef;
      const roomTypeIds = [hotel.roomTypes[next(hotel.roomTypes.length)]?.id as string];
      const from = addDays(today, next(70));
      const to = addDays(from, next(4) === 0 ? next(20) : next(3));
      const flag = () => [null, true, false][next(3)];
      const action = next(8);
      if (action < 2) {
        const quote = await requestQuote(app.t, {
          hotelId: hotel.id,
          checkIn: from,
          checkOut: addDays(from, 1 + next(4)),
          adults: 1 + next(2),
          roomTypeId: roomTypeIds[0] as string,
          ratePlanId: 'flex',
        });
        if (quote.statusCode === 201) {
          const res = await reserve(app.t, quote.json().id);
          assert.ok([201, 409].includes(res.statusCode), res.body);
        }
        continue;
      }
      const set =
        action < 6
          ? {
              ...(next(3) === 0 ? { rooms: next(6) } : {}),
              ...(next(3) === 0 ? { stopSell: flag() } : {}),
              ...(next(3) === 0 ? { closedToArrival: flag() } : {}),
              ...(next(3) === 0 ? { closedToDeparture: flag() } : {}),
              ...(next(3) === 0 ? { minStay: next(2) ? null : 1 + next(5) } : {}),
              ...(next(4) === 0 ? { maxStay: next(2) ? null : 1 + next(9) } : {}),
            }
          : null;
      // A stay limit's minimum above its maximum is refused (400): keep the minimum alone.
      if (
        set &&
        typeof set.minStay === 'number' &&
        typeof set.maxStay === 'number' &&
        set.minStay > set.maxStay
      )
        delete set.maxStay;
      const plan = hotel.ratePlans.filter((p) => !p.pricing && p.prices?.[roomTypeIds[0] as string]);
      const pricePlan = plan[next(plan.length)];
      const update =
        set && Object.keys(set).length > 0
          ? { roomTypeIds, from, to, set }
          : pricePlan
            ? {
                roomTypeIds,
                ratePlanIds: [pricePlan.id],
                from,
                to,
                set: {
                  base: 5000 + next(40) * 500,
                  ...(next(2) ? { extraAdult: next(5) * 1000 } : {}),
                  ...(next(3) === 0 ? { includedAdults: 1 } : {}),
                  ...(next(3) === 0 ? { child: next(4) * 500 } : {}),
                },
              }
            : null;
      if (!update) continue;
      const res = await app.t.inject({
        method: 'PATCH',
        url: `${OPERATOR}/hotels/${hotel.id}/calendar`,
        headers: auth(app.root),
        payload: { updates: [update] },
      });
      assert.ok([200, 409].includes(res.statusCode), `${JSON.stringify(update)}: ${res.body}`);
    }
  }

  /*
   * Booking decides on a fresh read of the database (stay-evaluation), and so does a quote on
   * PostgreSQL (on the embedded engine it prices from the view, exact there), search on the
   * in-memory view: the contract says a search offer's `total` is exactly what a quote for the same
   * inputs totals (API.md 2.1), and a reservation keeps its quote's lines. Random stays, an offer of
   * each picked at random, quoted, and a third of them booked, between random calendar changes.
   */
  it('quotes every offer picked at the price search showed, and books it at the quote’s', async () => {
    const next = random(SEED + 1);
    const today = localToday(app.t);
    let quoted = 0;
    let booked = 0;
    for (let round = 0; round < 3; round++) {
      if (round > 0) await change(next, 20);
      for (let i = 0; i < Math.ceil(STAYS / 8); i++) {
        const hotel = hotels[next(3) === 0 ? 1 : 0] as HotelDef;
        const body = randomStay(next, hotel, today);
        const where = `FUZZ_SEED=${SEED}, round ${round}, stay ${i}: ${JSON.stringify(body)}`;
        const found = await search(app.t, body);
        if (found.statusCode !== 200) continue;
        const offers = found.json().offers as Json[];
        const offer = offers[next(offers.length)];
        const quote = await requestQuote(app.t, {
          ...body,
          roomTypeId: offer.roomType.id,
          ratePlanId: offer.ratePlan.id,
        });
        assert.equal(quote.statusCode, 201, `${where}\n${quote.body}`);
        const q = quote.json();
        quoted++;
        assert.deepStrictEqual(q.total, offer.total, `${where}: total`);
        assert.deepStrictEqual(q.ratePlan, offer.ratePlan, `${where}: rate plan`);
        assert.equal(q.cancellationPolicy.refundable, offer.cancellationPolicy.refundable, where);
        assert.equal(
          q.cancellationPolicy.freeCancellationUntil,
          offer.cancellationPolicy.freeCancellationUntil,
          where,
        );
        // `nightly` is the rooms' price per night: the quote's room lines of that date, summed.
        const roomsByNight = new Map<string, number>();
        for (const line of q.lines as Json[])
          if (line.type === 'room')
            roomsByNight.set(line.date, (roomsByNight.get(line.date) ?? 0) + line.amount.amount);
        assert.deepStrictEqual(
          Object.fromEntries(roomsByNight),
          Object.fromEntries((offer.nightly as Json[]).map((n) => [n.date, n.amount.amount])),
          `${where}: nightly`,
        );
        if (next(3) !== 0) continue;
        const prepaid = offer.ratePlan.prepayment !== 'none';
        const res = await reserve(app.t, q.id, prepaid ? { payment: { token: 'tok_visa' } } : {});
        if (res.statusCode === 409) continue; // sold between the quote and the booking: never here, but allowed
        assert.equal(res.statusCode, 201, `${where}\n${res.body}`);
        booked++;
        assert.deepStrictEqual(res.json().total, q.total, `${where}: the reservation's total`);
        assert.deepStrictEqual(res.json().lines, q.lines, `${where}: the reservation's lines`);
      }
    }
    assert.ok(quoted > STAYS / 8 && booked > STAYS / 40, `${quoted} quoted, ${booked} booked`);
  });

  it('on thousands of random stays and calendar queries, between random calendar changes and bookings', async () => {
    const next = random(SEED);
    const seen: Record<number, number> = {};
    for (let round = 0; round < 3; round++) {
      if (round > 0) await change(next, 40);
      const statuses = await compareStays(next, round);
      for (const [status, n] of Object.entries(statuses))
        seen[Number(status)] = (seen[Number(status)] ?? 0) + n;
      await compareCalendars(next, round, 40);
    }
    // The comparison means something only if it saw offers, refusals and invalid requests.
    assert.ok((seen[200] ?? 0) > STAYS, JSON.stringify(seen));
    assert.ok((seen[409] ?? 0) + (seen[422] ?? 0) > 20, JSON.stringify(seen));
  });

  it('as quotes do, on random stays between random calendar changes and bookings', async () => {
    const next = random(SEED + 1);
    let offered = 0;
    for (let round = 0; round < 3; round++) {
      if (round > 0) await change(next, 40);
      offered += await compareQuotes(next, round, STAYS / 2);
    }
    assert.ok(offered > STAYS / 4, `only ${offered} quotes had an offer`);
  });
});
