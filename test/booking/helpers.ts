import assert from 'node:assert/strict';
import { applyCatalog } from '../../src/catalog/apply-catalog.ts';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { nightsFollowCatalog } from '../../src/hotel-calendar/catalog-nights.ts';
import type { ChargeRequest, PaymentProvider } from '../../src/payments/payment-provider.ts';
import { createTestPaymentProvider } from '../../src/payments/test-provider.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** Shared vocabulary of the booking HTTP tests: requests, dates on the test clock, problem checks. */

export const BOOKING = '/api/v1/booking';
export type Response = Awaited<ReturnType<TestApp['inject']>>;
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
export type Json = any;

export const GUEST = {
  firstName: 'Ana',
  lastName: 'Silva',
  email: 'ana@example.com',
  phone: '+351912345678',
};
export const CONFIRMATION_CODE = /^[0-9A-HJKMNP-TV-Z]{6,}$/;

export interface StayBody {
  hotelId: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  children?: number[];
  rooms?: number;
  services?: string[];
}
export interface QuoteBody extends StayBody {
  roomTypeId: string;
  ratePlanId: string;
}

/**
 * The real app for the booking tests, with load shedding off: the embedded engine runs on the event
 * loop, so start-up and catalogue loads show up as event-loop delay and the shedder would answer 503
 * to whichever booking request comes next; and the concurrency tests queue for database connections
 * on purpose. Shedding has its own tests.
 */
export function startBookingApp(options: NonNullable<Parameters<typeof startTestApp>[0]>): Promise<TestApp> {
  return startTestApp({
    ...options,
    env: { LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0', LOAD_SHED_MAX_WAIT_MS: '0', ...options.env },
  });
}

// ---------------------------------------------------------------- dates on the test clock

/** The calendar date `n` days after `date` (plain UTC-midnight arithmetic, no zone involved). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The hotel's calendar date at the test clock's "now", computed independently of src/. */
export function localToday(t: TestApp, timezone = 'Europe/Lisbon'): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(t.clock.now());
}

/** A stay of `nights` nights arriving `fromToday` days after the hotel's today on the test clock. */
export function stay(t: TestApp, fromToday: number, nights: number, timezone = 'Europe/Lisbon') {
  const checkIn = addDays(localToday(t, timezone), fromToday);
  return { checkIn, checkOut: addDays(checkIn, nights) };
}

// ---------------------------------------------------------------- requests

export function post(t: TestApp, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.inject({
    method: 'POST',
    url: url.startsWith('/') ? url : `${BOOKING}/${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers,
  });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const search = (t: TestApp, body: StayBody, headers?: Record<string, string>) =>
  post(t, 'availability/search', body, headers);

export const requestQuote = (t: TestApp, body: QuoteBody, headers?: Record<string, string>) =>
  post(t, 'quote', body, headers);

export function reserve(
  t: TestApp,
  quoteId: string,
  extra: { guest?: object; payment?: object; specialRequests?: string } = {},
  headers?: Record<string, string>,
) {
  return post(t, 'reservations', { quoteId, guest: GUEST, ...extra }, headers);
}

export function modify(
  t: TestApp,
  code: string,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return t.inject({
    method: 'PATCH',
    url: `${BOOKING}/reservations/${code}`,
    payload: body as object,
    headers: { ...bearer(token), ...headers },
  });
}

export function cancel(
  t: TestApp,
  code: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return post(t, `reservations/${code}/cancel`, body, { ...bearer(token), ...headers });
}

/** A 201 quote, or the test fails showing the problem. */
export async function quoteOk(t: TestApp, body: QuoteBody): Promise<Json> {
  const res = await requestQuote(t, body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** Quote + reservation; the reservation body and its access token. */
export async function book(
  t: TestApp,
  body: QuoteBody,
  extra: { guest?: object; payment?: object; specialRequests?: string } = {},
): Promise<{ reservation: Json; token: string; etag: string }> {
  const quote = await quoteOk(t, body);
  const res = await reserve(t, quote.id, extra);
  assert.equal(res.statusCode, 201, res.body);
  const { accessToken, ...reservation } = res.json();
  return { reservation, token: accessToken, etag: String(res.headers.etag) };
}

/** What a stay booked by `bookStay` may vary; unset fields take the caller's `defaults`. */
export interface StayOptions {
  fromToday?: number;
  nights?: number;
  adults?: number;
  children?: number[];
  rooms?: number;
  roomTypeId?: string;
  ratePlanId?: string;
  guest?: object;
  payment?: object;
}

/** A reservation booked through the public API: its code, access token, body, ETag and dates. */
export interface BookedStay {
  code: string;
  token: string;
  reservation: Json;
  etag: string;
  checkIn: string;
  checkOut: string;
}

/**
 * The one way tests book a stay through the public API (quote, then reservation), in the hotel's
 * time zone when given its definition. Each group of tests names its usual stay in `defaults`
 * (CHECKIN_STAY, OPERATOR_STAY) instead of keeping a helper of its own; a non-refundable plan is
 * paid with the test provider's card unless `payment` says otherwise.
 */
export async function bookStay(
  t: TestApp,
  hotel: HotelDef | string,
  options: StayOptions,
  defaults: Required<Pick<StayOptions, 'fromToday' | 'nights' | 'adults'>> & StayOptions,
): Promise<BookedStay> {
  const o = { ...defaults, ...options };
  const hotelId = typeof hotel === 'string' ? hotel : hotel.id;
  // The hotel's own zone: named by id, it is the catalogue's (a Madrid hotel's tomorrow starts an
  // hour before Lisbon's).
  const timezone = typeof hotel === 'string' ? t.runtime.catalog.get(hotel)?.timezone : hotel.timezone;
  const dates = stay(t, o.fromToday, o.nights, timezone);
  const ratePlanId = o.ratePlanId ?? 'flex';
  const payment = o.payment ?? (ratePlanId === 'nonref' ? { token: 'tok_visa' } : undefined);
  const { reservation, token, etag } = await book(
    t,
    {
      hotelId,
      ...dates,
      adults: o.adults,
      ...(o.children ? { children: o.children } : {}),
      ...(o.rooms ? { rooms: o.rooms } : {}),
      roomTypeId: o.roomTypeId ?? 'double',
      ratePlanId,
    },
    { ...(o.guest ? { guest: o.guest } : {}), ...(payment ? { payment } : {}) },
  );
  return { code: reservation.id, token, reservation, etag, ...dates };
}

// ---------------------------------------------------------------- assertions

/** Asserts an RFC 9457 problem with the contract's fields; returns its body. */
export function assertProblem(res: Response, status: number, code: string): Json {
  assert.equal(res.statusCode, status, `expected ${status} ${code}, got ${res.statusCode}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.code, code, res.body);
  assert.equal(body.status, status);
  assert.equal(body.type, `https://innkeep.dev/problems/${code.replaceAll('_', '-')}`);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.ok(body.detail.length > 0);
  assert.equal(body.requestId, res.headers['x-request-id']);
  return body;
}

/** A 400 validation_error whose errors[] name exactly these JSON pointers (any order). */
export function assertInvalid(res: Response, ...paths: string[]): Json {
  const body = assertProblem(res, 400, 'validation_error');
  assert.ok(Array.isArray(body.errors) && body.errors.length > 0, res.body);
  for (const e of body.errors) assert.equal(typeof e.message, 'string');
  assert.deepEqual(
    [...new Set(body.errors.map((e: { path: string }) => e.path))].sort(),
    [...paths].sort(),
    res.body,
  );
  return body;
}

/** Every line's amount is unitAmount × quantity, and the total is the sum of the lines. */
export function assertLinesAddUp(priced: { lines: Json[]; total: Json }): void {
  for (const line of priced.lines) {
    // Money is integer minor units, never a float.
    assert.ok(
      Number.isInteger(line.unitAmount.amount) && Number.isInteger(line.amount.amount),
      JSON.stringify(line),
    );
    assert.ok(Number.isInteger(line.quantity) && line.quantity > 0, JSON.stringify(line));
    assert.equal(line.amount.amount, line.unitAmount.amount * line.quantity, JSON.stringify(line));
    assert.equal(line.amount.currency, priced.total.currency);
  }
  const sum = priced.lines.reduce((s: number, l: Json) => s + l.amount.amount, 0);
  assert.equal(priced.total.amount, sum);
}

export const eur = (amount: number) => ({ amount, currency: 'EUR' });

// ---------------------------------------------------------------- availability through search

/**
 * Rooms of `roomTypeId` left over [checkIn, checkOut), read through the public search (1 adult):
 * the offer's `available`, or 0 when search reports the room type sold out.
 */
export async function roomsLeft(
  t: TestApp,
  hotelId: string,
  roomTypeId: string,
  checkIn: string,
  checkOut: string,
) {
  const res = await search(t, { hotelId, checkIn, checkOut, adults: 1 });
  const body = res.json();
  if (res.statusCode === 200) {
    const offer = body.offers.find((o: Json) => o.roomType.id === roomTypeId);
    if (offer) return offer.available as number;
    const entry = body.unavailable.find((u: Json) => u.roomType.id === roomTypeId);
    assert.equal(entry?.reason, 'sold_out', res.body);
    return 0;
  }
  assert.equal(res.statusCode, 409, res.body);
  const entry = body.errors.find((e: Json) => e.roomTypeId === roomTypeId);
  assert.equal(entry?.reason, 'sold_out', res.body);
  return 0;
}

/** Rooms left of a room type for each single night from `checkIn`, through search. */
export async function nightlyLeft(
  t: TestApp,
  hotelId: string,
  roomTypeId: string,
  checkIn: string,
  nights: number,
) {
  const left: number[] = [];
  for (let i = 0; i < nights; i++) {
    left.push(await roomsLeft(t, hotelId, roomTypeId, addDays(checkIn, i), addDays(checkIn, i + 1)));
  }
  return left;
}

// ---------------------------------------------------------------- catalogue and payments

/**
 * Loads a changed definition of a hotel, as an operator's catalogue reload would, and makes the
 * running app see it at once (the app otherwise refreshes every few seconds).
 */
export async function reloadHotel(t: TestApp, def: HotelDef): Promise<void> {
  await applyCatalog(t.db, parseCatalog({ hotels: [def] }).hotels, t.clock.now(), nightsFollowCatalog);
  await t.runtime.catalog.refresh();
}

export interface RecordedCharge extends ChargeRequest {
  providerRef: string;
}

/**
 * The built-in test provider, recording what really moved: successful charges and every refund.
 * References carry the reservation code (`R…/booking`), so money can be followed per reservation.
 */
export function recordingPayments() {
  const inner = createTestPaymentProvider();
  const charges: RecordedCharge[] = [];
  const refunds: Array<{ providerRef: string | null; amount: number; currency: string; reference: string }> =
    [];
  const provider: PaymentProvider = {
    name: inner.name,
    recognises: (token) => inner.recognises(token),
    async charge(request) {
      const result = await inner.charge(request);
      if (result.ok) charges.push({ ...request, providerRef: result.providerRef });
      return result;
    },
    async refund(request) {
      refunds.push(request);
      return inner.refund(request);
    },
  };
  return {
    provider,
    charges,
    refunds,
    /** Money held for a reservation: its charges minus its refunds (including compensations). */
    netFor(code: string): number {
      const mine = charges.filter((c) => c.reference.startsWith(`${code}/`));
      const refs = new Set(mine.map((c) => c.providerRef));
      const back = refunds.filter(
        (r) => r.reference.startsWith(`${code}/`) || (r.providerRef && refs.has(r.providerRef)),
      );
      return mine.reduce((s, c) => s + c.amount, 0) - back.reduce((s, r) => s + r.amount, 0);
    },
    /** Money held over everything this app charged: charges minus refunds. */
    net(): number {
      return charges.reduce((s, c) => s + c.amount, 0) - refunds.reduce((s, r) => s + r.amount, 0);
    },
  };
}

/**
 * The UTC instant at which the wall clock in `timezone` shows `time` on `date`, as RFC 3339 —
 * computed with Intl alone, independently of src/ (cancellation deadlines, session `expiresAt`).
 */
export function wallTimeUtc(date: string, time: string, timezone: string): string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const offsetAt = (ms: number) => {
    const parts = format.formatToParts(new Date(ms));
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return (
      Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) -
      ms
    );
  };
  const wall = Date.parse(`${date}T${time}:00Z`);
  const instant = wall - offsetAt(wall - offsetAt(wall));
  return new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The UTC instant of 00:00 on `date` in `timezone`: where a cancellation deadline falls. */
export function localMidnightUtc(date: string, timezone: string): string {
  return wallTimeUtc(date, '00:00', timezone);
}
