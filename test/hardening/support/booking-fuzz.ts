import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { QuoteRequest, SearchRequest } from '../../../src/booking/availability.schemas.ts';
import {
  CancelRequest,
  ModifyRequest,
  ReservationRequest,
} from '../../../src/booking/reservation-requests.schemas.ts';
import { daysFromNow, makeHotel, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import {
  endpointRequests,
  type FuzzStats,
  fuzzEndpoint,
  fuzzRuns,
  newStats,
  type Target,
} from './fuzz-harness.ts';
import { arbitraryFor, type Overrides } from './schema-arbitrary.ts';

/** Requests per endpoint in CI; with the check-in endpoints the suite sends 10,000 (fuzzRuns). */
export const BOOKING_RUNS = { search: 1400, quote: 1200, reservations: 1200, modify: 1200, cancel: 1000 };
type Endpoint = keyof typeof BOOKING_RUNS;
const RUNS = {
  search: fuzzRuns(BOOKING_RUNS.search),
  quote: fuzzRuns(BOOKING_RUNS.quote),
  reservations: fuzzRuns(BOOKING_RUNS.reservations),
  modify: fuzzRuns(BOOKING_RUNS.modify),
  cancel: fuzzRuns(BOOKING_RUNS.cancel),
};
const BASE = '/api/v1/booking';

/**
 * Fuzzes the given booking endpoints (valid, near-valid and hostile requests generated from their
 * request schemas) against a fresh app with a few real quotes and reservations to aim at.
 */
export function fuzzBookingEndpoints(endpoints: Endpoint[]) {
  const hotel = makeHotel();
  let t: TestApp;
  const stats: FuzzStats = newStats();
  const quotes: string[] = [];
  const reservations: Array<{ code: string; token: string }> = [];

  const stayDates = fc
    .tuple(fc.integer({ min: -2, max: 120 }), fc.integer({ min: -1, max: 8 }))
    .map(([start, nights]) => ({ checkIn: daysFromNow(start), checkOut: daysFromNow(start + nights) }));
  const stayOverrides: Overrides = {
    '/hotelId': fc.oneof(
      { weight: 9, arbitrary: fc.constant(hotel.id) },
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 64 }) },
    ),
    '/adults': fc.integer({ min: 1, max: 6 }),
    '/rooms': fc.integer({ min: 1, max: 3 }),
    '/children': fc.array(fc.integer({ min: 0, max: 17 }), { maxLength: 3 }),
    '/services': fc.subarray(['breakfast', 'parking', 'spa']),
    '/roomTypeId': fc.constantFrom('double', 'suite', 'penthouse'),
    '/ratePlanId': fc.constantFrom('flex', 'nonref', 'corporate'),
  };
  const withStay = (body: fc.Arbitrary<unknown>) =>
    fc.tuple(body, stayDates).map(([b, dates]) => Object.assign(b as object, dates));

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const reservationTarget = (suffix: string): fc.Arbitrary<Target> =>
    fc.tuple(fc.nat(), fc.nat(9)).map(([i, roll]) => {
      const r = reservations[i % reservations.length] as { code: string; token: string };
      const other = reservations[(i + 1) % reservations.length] as { code: string; token: string };
      // Mostly the right token; sometimes another reservation's, or none.
      const headers = roll < 7 ? bearer(r.token) : roll < 9 ? bearer(other.token) : {};
      return { url: `${BASE}/reservations/${r.code}${suffix}`, headers };
    });
  const fixed = (url: string): fc.Arbitrary<Target> => fc.constant({ url, headers: {} });

  async function quote(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: `${BASE}/quote`, payload: body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  }

  before(async () => {
    t = await startTestApp({
      hotels: [hotel],
      env: { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0' },
    });
    for (let i = 0; i < 40; i++) {
      quotes.push(
        await quote({
          hotelId: hotel.id,
          checkIn: daysFromNow(150 + (i % 20)),
          checkOut: daysFromNow(152 + (i % 20)),
          adults: 1,
          roomTypeId: 'double',
          ratePlanId: i % 4 ? 'flex' : 'nonref',
        }),
      );
    }
    for (let i = 0; i < 16; i++) {
      const quoteId = await quote({
        hotelId: hotel.id,
        checkIn: daysFromNow(200 + i),
        checkOut: daysFromNow(203 + i),
        adults: 2,
        children: [5],
        roomTypeId: 'double',
        ratePlanId: 'flex',
      });
      const res = await t.inject({
        method: 'POST',
        url: `${BASE}/reservations`,
        payload: { quoteId, guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' } },
      });
      assert.equal(res.statusCode, 201, res.body);
      reservations.push({ code: res.json().id, token: res.json().accessToken });
    }
  });

  after(async () => {
    console.log(`booking fuzz (${endpoints.join(', ')}): ${JSON.stringify(stats)}`);
    await t.close();
  });

  /** A test for each endpoint this file fuzzes; the others belong to another file. */
  const fuzz = (endpoint: Endpoint, title: string, fn: () => Promise<void>) => {
    if (endpoints.includes(endpoint)) it(title, fn);
  };

  describe(`booking endpoints under generated requests (${endpoints.join(', ')})`, () => {
    fuzz('search', `POST ${BASE}/availability/search (${RUNS.search})`, async () => {
      const body = withStay(arbitraryFor(SearchRequest, stayOverrides));
      await fuzzEndpoint(
        t,
        endpointRequests({ method: 'POST', target: fixed(`${BASE}/availability/search`), body }),
        RUNS.search,
        stats,
      );
    });

    fuzz('quote', `POST ${BASE}/quote (${RUNS.quote})`, async () => {
      const body = withStay(arbitraryFor(QuoteRequest, stayOverrides));
      await fuzzEndpoint(
        t,
        endpointRequests({ method: 'POST', target: fixed(`${BASE}/quote`), body }),
        RUNS.quote,
        stats,
      );
    });

    fuzz('reservations', `POST ${BASE}/reservations (${RUNS.reservations})`, async () => {
      const body = arbitraryFor(ReservationRequest, {
        '/quoteId': fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom(...quotes) },
          { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 100 }) },
        ),
        '/payment/token': fc.constantFrom(
          'tok_visa',
          'tok_mastercard',
          'tok_declined',
          'tok_insufficient_funds',
          'tok_unknown',
        ),
      });
      await fuzzEndpoint(
        t,
        endpointRequests({ method: 'POST', target: fixed(`${BASE}/reservations`), body }),
        RUNS.reservations,
        stats,
      );
    });

    fuzz('modify', `PATCH ${BASE}/reservations/{reservation} (${RUNS.modify})`, async () => {
      const body = arbitraryFor(ModifyRequest, {
        ...stayOverrides,
        '/checkIn': fc.integer({ min: -2, max: 260 }).map(daysFromNow),
        '/checkOut': fc.integer({ min: -2, max: 265 }).map(daysFromNow),
        '/payment/token': fc.constantFrom('tok_visa', 'tok_declined', 'tok_unknown'),
      });
      await fuzzEndpoint(
        t,
        endpointRequests({
          method: 'PATCH',
          target: reservationTarget(''),
          withParam: (s) => `${BASE}/reservations/${s}`,
          body,
        }),
        RUNS.modify,
        stats,
      );
    });

    fuzz('cancel', `POST ${BASE}/reservations/{reservation}/cancel (${RUNS.cancel})`, async () => {
      const body = arbitraryFor(CancelRequest);
      await fuzzEndpoint(
        t,
        endpointRequests({
          method: 'POST',
          target: reservationTarget('/cancel'),
          withParam: (s) => `${BASE}/reservations/${s}/cancel`,
          body,
        }),
        RUNS.cancel,
        stats,
      );
    });

    it('left no polluted prototype behind', () => {
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
    });
  });
}
