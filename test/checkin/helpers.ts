import assert from 'node:assert/strict';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import type { Database } from '../../src/infra/db/database.ts';
import type { PaymentProvider } from '../../src/payments/payment-provider.ts';
import {
  type BookedStay,
  bookStay as bookStayWith,
  type Json,
  type StayOptions,
} from '../booking/helpers.ts';

export { wallTimeUtc } from '../booking/helpers.ts';

import { type Cleanup, isCleanup, makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

/** Shared vocabulary of the check-in HTTP tests. */

export const CHECKIN = '/api/v1/checkin';

interface CheckinAppOptions {
  hotel?: Partial<HotelDef>;
  env?: Record<string, string>;
  payments?: PaymentProvider;
  wrapDb?: (db: Database) => Database;
}

/** A test app with one fresh hotel; `hotel` is its definition. Given the test's context first, it closes itself. */
export async function startCheckinApp(
  first?: Cleanup | CheckinAppOptions,
  second: CheckinAppOptions = {},
): Promise<{ t: TestApp; hotel: HotelDef }> {
  const options = isCleanup(first) ? second : (first ?? {});
  const hotel = makeHotel(options.hotel);
  // Load shedding off: the embedded engine runs on the event loop, so start-up (and multi-MiB
  // image bodies) read as event-loop delay; shedding has its own tests.
  const env = { LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0', LOAD_SHED_MAX_WAIT_MS: '0', ...options.env };
  const t = await startTestApp({
    hotels: [hotel],
    env,
    ...(options.payments ? { payments: options.payments } : {}),
    ...(options.wrapDb ? { wrapDb: options.wrapDb } : {}),
  });
  // Given the test's context, the app closes itself when the test ends (see startTestApp).
  if (isCleanup(first)) first.after(() => t.close());
  return { t, hotel };
}

/** What the check-in helpers need of a booking (a stay booked otherwise has no ETag). */
export type Booked = Omit<BookedStay, 'etag'>;

/** The check-in tests' usual stay: one adult, no children, three nights five days ahead. */
const CHECKIN_STAY = { fromToday: 5, nights: 3, adults: 1, children: [] };

/** Books a stay through the public API (test/booking/helpers.ts bookStay, the check-in tests' stay). */
export function bookStay(t: TestApp, hotel: HotelDef, options: StayOptions = {}): Promise<Booked> {
  return bookStayWith(t, hotel, options, CHECKIN_STAY);
}

export function openSession(t: TestApp, body: object, headers: Record<string, string> = {}) {
  return t.inject({ method: 'POST', url: `${CHECKIN}/sessions`, payload: body, headers });
}

export function getSession(t: TestApp, id: string) {
  return t.inject({ method: 'GET', url: `${CHECKIN}/sessions/${id}` });
}

export function submitStep(
  t: TestApp,
  id: string,
  step: string,
  data: unknown,
  headers: Record<string, string> = {},
) {
  return t.inject({
    method: 'POST',
    url: `${CHECKIN}/sessions/${id}/step`,
    payload: { step, data } as object,
    headers,
  });
}

/** Opens the session of a booking by last name; returns the session id and body. */
export async function openedSession(t: TestApp, booked: Booked): Promise<{ id: string; body: Json }> {
  const res = await openSession(t, { reservationId: booked.code, lastName: 'Silva' });
  assert.equal(res.statusCode, 201, res.body);
  const body = res.json();
  return { id: body.session.id, body };
}

export async function stepOk(t: TestApp, id: string, step: string, data: unknown): Promise<Json> {
  const res = await submitStep(t, id, step, data);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

// ---------------------------------------------------------------- step data

export const GUEST_DETAILS = {
  firstName: 'Ana',
  lastName: 'Silva',
  email: 'ana@example.com',
  dateOfBirth: '1988-04-02',
  nationality: 'PT',
  phone: '+351912345678',
  address: { line1: 'Rua das Flores 12', city: 'Lisboa', postalCode: '1200-195', country: 'PT' },
  arrivalTime: '16:30',
};

export const companion = (i: number) => ({
  firstName: `Guest${i}`,
  lastName: 'Silva',
  dateOfBirth: '2015-06-14',
  nationality: 'ES',
});

export const DOCUMENT_NUMBER = 'ZX98765432';

export function identityDocument(checkOut: string, extra: object = {}) {
  return {
    type: 'passport',
    number: DOCUMENT_NUMBER,
    issuingCountry: 'PT',
    expiryDate: `${Number(checkOut.slice(0, 4)) + 5}${checkOut.slice(4)}`,
    ...extra,
  };
}

export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 9)]);
export const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

export const SIGNATURE = {
  acceptTerms: true,
  signerName: 'Ana Silva',
  signature: 'M10 80 C 40 10, 65 10, 95 80',
};

/** Runs every step that applies, in order; returns the last response body. */
export async function completeCheckin(t: TestApp, id: string, booked: Booked, companions = 0): Promise<Json> {
  let body = await stepOk(t, id, 'guest_details', GUEST_DETAILS);
  if (companions > 0) {
    body = await stepOk(t, id, 'companions', {
      guests: Array.from({ length: companions }, (_, i) => companion(i)),
    });
  }
  body = await stepOk(
    t,
    id,
    'identity_document',
    identityDocument(booked.checkOut, { image: dataUrl('image/jpeg', JPEG) }),
  );
  body = await stepOk(t, id, 'signature', SIGNATURE);
  if (body.session.nextStep === 'payment') body = await stepOk(t, id, 'payment', { token: 'tok_visa' });
  return body;
}

// ---------------------------------------------------------------- signatures

export async function fetchJwks(t: TestApp): Promise<JSONWebKeySet> {
  const res = await t.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Verifies a session signature with jose against the JWKS the app serves, as any client would. */
export async function verifyWithJwks(t: TestApp, signature: string, jwks?: JSONWebKeySet) {
  const keys = createLocalJWKSet(jwks ?? (await fetchJwks(t)));
  return jwtVerify(signature, keys, {
    issuer: t.config.publicBaseUrl,
    algorithms: ['EdDSA'],
    currentDate: t.clock.now(),
  });
}

export const statusOf = (session: Json, step: string) =>
  session.steps.find((s: { name: string }) => s.name === step)?.status;
export const dataOf = (session: Json, step: string) =>
  session.steps.find((s: { name: string }) => s.name === step)?.data;

/** Moves the test clock to `ms` after the given instant. */
export function moveClockTo(t: TestApp, instant: string, plusMs = 0): void {
  t.clock.advance(Date.parse(instant) + plusMs - t.clock.now().getTime());
}

export async function reservationRow(t: TestApp, code: string) {
  const { rows } = await t.db.query<{
    id: number;
    checkin_status: string;
    version: number;
    updated_at: Date;
    paid_amount: number;
    payment_status: string;
  }>(
    'SELECT id, checkin_status, version, updated_at, paid_amount, payment_status FROM reservations WHERE code = $1',
    [code],
  );
  assert.ok(rows[0], `reservation ${code} not found`);
  return rows[0];
}
