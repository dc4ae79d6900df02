import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { OpenSessionBody, STEP_SUBMISSIONS } from '../../src/checkin/checkin.schemas.ts';
import { daysFromNow, makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  endpointRequests,
  type FuzzStats,
  fuzzEndpoint,
  fuzzRuns,
  newStats,
  type Target,
} from './support/fuzz-harness.ts';
import { arbitraryFor } from './support/schema-arbitrary.ts';

/**
 * Property-based fuzzing of the self check-in endpoints, generated from their request schemas:
 * never a 5xx, always problem+json on errors, and a rejected request never changes stored state
 * (failed proofs are counted by design and left out of the comparison). With the booking files
 * the suite sends 10,000 requests in CI, a fifth of that locally (fuzzRuns).
 */
const RUNS = { open: fuzzRuns(1400), read: fuzzRuns(1200), step: fuzzRuns(1400) };
const BASE = '/api/v1/checkin';

const hotel = makeHotel();
let t: TestApp;
const stats: FuzzStats = newStats();
const reservations: Array<{ code: string; token: string; lastName: string }> = [];
const sessions: string[] = [];
let present = false;

async function reserve(i: number) {
  const lastName = ['Silva', 'Gonçalves', "O'Brien", 'Müller-Lüdenscheidt'][i % 4] as string;
  const quote = await t.inject({
    method: 'POST',
    url: '/api/v1/booking/quote',
    payload: {
      hotelId: hotel.id,
      checkIn: daysFromNow(20 + i),
      checkOut: daysFromNow(22 + i),
      adults: 1 + (i % 2),
      children: i % 3 === 0 ? [6] : [],
      roomTypeId: 'double',
      ratePlanId: i % 5 === 0 ? 'nonref' : 'flex',
    },
  });
  assert.equal(quote.statusCode, 201, quote.body);
  const created = await t.inject({
    method: 'POST',
    url: '/api/v1/booking/reservations',
    payload: {
      quoteId: quote.json().id,
      guest: { firstName: 'Ana', lastName, email: 'ana@example.com' },
      ...(i % 5 === 0 ? { payment: { token: 'tok_visa' } } : {}),
    },
  });
  assert.equal(created.statusCode, 201, created.body);
  return { code: created.json().id as string, token: created.json().accessToken as string, lastName };
}

before(async () => {
  t = await startTestApp({
    hotels: [hotel],
    env: { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0' },
  });
  present = t.app.hasRoute({ method: 'POST', url: `${BASE}/sessions` });
  if (!present) return;
  for (let i = 0; i < 12; i++) reservations.push(await reserve(i));
  for (const r of reservations.slice(0, 9)) {
    const res = await t.inject({
      method: 'POST',
      url: `${BASE}/sessions`,
      payload: { reservationId: r.code, lastName: r.lastName },
    });
    assert.equal(res.statusCode, 201, res.body);
    sessions.push(res.json().session.id);
  }
});

after(async () => {
  console.log(`check-in fuzz: ${JSON.stringify(stats)}`);
  await t.close();
});

const fixed = (url: string): fc.Arbitrary<Target> => fc.constant({ url, headers: {} });
const sessionTarget = (suffix: string): fc.Arbitrary<Target> =>
  fc.nat().map((i) => ({ url: `${BASE}/sessions/${sessions[i % sessions.length]}${suffix}`, headers: {} }));
const skip = () => (present ? false : 'check-in routes are not registered');

describe('check-in endpoints under generated requests', () => {
  it(`POST ${BASE}/sessions (${RUNS.open})`, async (c) => {
    if (skip()) return c.skip(skip() as string);
    const body = fc.tuple(fc.nat(), fc.nat(5), arbitraryFor(OpenSessionBody)).map(([i, roll, generated]) => {
      const r = reservations[i % reservations.length] as (typeof reservations)[number];
      // The right code with the right, a differently written, or a wrong last name; or anything.
      if (roll === 0) return generated;
      const lastName =
        roll === 1
          ? r.lastName.toUpperCase()
          : roll === 2
            ? (generated as { lastName?: string }).lastName
            : r.lastName;
      return { reservationId: roll === 3 ? r.code.toLowerCase() : r.code, ...(lastName ? { lastName } : {}) };
    });
    const target = fc.tuple(fc.nat(), fc.nat(3)).map(([i, roll]): Target => {
      const r = reservations[i % reservations.length] as (typeof reservations)[number];
      return { url: `${BASE}/sessions`, headers: roll === 0 ? { authorization: `Bearer ${r.token}` } : {} };
    });
    await fuzzEndpoint(
      t,
      endpointRequests({ method: 'POST', target: fc.oneof(target, fixed(`${BASE}/sessions`)), body }),
      RUNS.open,
      stats,
    );
  });

  it(`GET ${BASE}/sessions/{session} (${RUNS.read})`, async (c) => {
    if (skip()) return c.skip(skip() as string);
    await fuzzEndpoint(
      t,
      endpointRequests({
        method: 'GET',
        target: sessionTarget(''),
        withParam: (s) => `${BASE}/sessions/${s}`,
      }),
      RUNS.read,
      stats,
    );
  });

  it(`POST ${BASE}/sessions/{session}/step (${RUNS.step})`, async (c) => {
    if (skip()) return c.skip(skip() as string);
    const today = new Date().toISOString().slice(0, 10);
    const dates = fc.integer({ min: -40_000, max: 4000 }).map((d) => daysFromNow(d));
    const body = fc.oneof(
      ...Object.values(STEP_SUBMISSIONS).map((schema) =>
        arbitraryFor(schema, {
          '/data/dateOfBirth': fc.oneof(dates, fc.constant(today)),
          '/data/expiryDate': dates,
          '/data/guests/0/dateOfBirth': dates,
          '/data/token': fc.constantFrom(
            'tok_visa',
            'tok_mastercard',
            'tok_declined',
            'tok_insufficient_funds',
            'tok_nope',
          ),
          '/data/image': fc.constantFrom(
            'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
            'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==',
            'data:text/html;base64,PHNjcmlwdD4=',
            'data:image/png;base64,!!!',
          ),
          '/data/signature': fc.constantFrom(
            'M10 80 C 40 10, 65 10, 95 80',
            'data:image/png;base64,iVBORw0KGgo=',
            '<svg onload=alert(1)>',
          ),
        }),
      ),
    );
    await fuzzEndpoint(
      t,
      endpointRequests({
        method: 'POST',
        target: sessionTarget('/step'),
        withParam: (s) => `${BASE}/sessions/${s}/step`,
        body,
      }),
      RUNS.step,
      stats,
    );
  });

  it('left no polluted prototype behind', () => {
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
