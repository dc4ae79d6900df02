/**
 * API.md section 1. Text: names and free text refuse control characters and the bidirectional
 * controls U+202A–U+202E and U+2066–U+2069 (`400 validation_error`), wherever they are accepted;
 * before, `Ana\u202Egnp.exe\u202C` was stored and shown at the desk as "Anaexe.png". Caching: every
 * answer holding guest data carries `Cache-Control: no-store`; the operator reservation list and
 * detail and the events feed did not.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertInvalid, bearer, GUEST, type Json, quoteOk } from '../booking/helpers.ts';
import {
  bookStay,
  CHECKIN,
  companion,
  GUEST_DETAILS,
  identityDocument,
  openedSession,
  SIGNATURE,
  stepOk,
} from '../checkin/helpers.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

const BIDI = [
  'Ana\u202Egnp.exe\u202C',
  'Ana\u2066x\u2069',
  '\u202Aa',
  'b\u202B',
  'c\u202D',
  'd\u2067',
  'e\u2068',
];
const CONTROL = ['Ana\u0007', 'Ana\u001B[31m', 'Ana\u0085', 'Ana\u007F'];

describe('names and free text refuse control and bidirectional control characters', () => {
  let app: OperatorApp;
  let t: TestApp;
  let booked: Awaited<ReturnType<typeof bookStay>>;
  let session: string;
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_WORKER: 'false' });
    t = app.t;
    booked = await bookStay(t, app.hotels[0], { adults: 2 });
    session = (await openedSession(t, booked)).id;
  });
  after(() => t.close());

  /** Each place a name or free text is accepted: a request with `text` in it, and the refused path. */
  const places: Array<{ name: string; path: string; free?: true; send: (text: string) => Promise<Json> }> = [
    {
      name: 'booking guest first name',
      path: '/guest/firstName',
      send: async (text) => {
        const [hotel] = app.hotels;
        const quote = await quoteOk(t, {
          hotelId: hotel.id,
          checkIn: booked.checkIn,
          checkOut: booked.checkOut,
          adults: 1,
          roomTypeId: 'double',
          ratePlanId: 'flex',
        });
        return t.inject({
          method: 'POST',
          url: '/api/v1/booking/reservations',
          payload: { quoteId: quote.id, guest: { ...GUEST, firstName: text } },
        });
      },
    },
    {
      name: 'guest PATCH last name',
      path: '/guest/lastName',
      send: (text) =>
        t.inject({
          method: 'PATCH',
          url: `/api/v1/booking/reservations/${booked.code}`,
          headers: bearer(booked.token),
          payload: { guest: { lastName: text } },
        }),
    },
    {
      name: 'special requests',
      path: '/specialRequests',
      free: true,
      send: (text) =>
        t.inject({
          method: 'PATCH',
          url: `/api/v1/booking/reservations/${booked.code}`,
          headers: bearer(booked.token),
          payload: { specialRequests: text },
        }),
    },
    {
      name: 'check-in proof last name',
      path: '/lastName',
      send: (text) =>
        t.inject({
          method: 'POST',
          url: `${CHECKIN}/sessions`,
          payload: { reservationId: booked.code, lastName: text },
        }),
    },
    {
      name: 'check-in guest details',
      path: '/data/firstName',
      send: (text) =>
        t.inject({
          method: 'POST',
          url: `${CHECKIN}/sessions/${session}/step`,
          payload: { step: 'guest_details', data: { ...GUEST_DETAILS, firstName: text } },
        }),
    },
    {
      name: 'check-in address city',
      path: '/data/address/city',
      send: (text) =>
        t.inject({
          method: 'POST',
          url: `${CHECKIN}/sessions/${session}/step`,
          payload: {
            step: 'guest_details',
            data: {
              ...GUEST_DETAILS,
              address: { line1: 'Rua 1', city: text, postalCode: '1000', country: 'PT' },
            },
          },
        }),
    },
    {
      name: 'operator internal notes',
      path: '/internalNotes',
      free: true,
      send: (text) =>
        t.inject({
          method: 'PATCH',
          url: `${OPERATOR}/reservations/${booked.code}`,
          headers: auth(app.root),
          payload: { internalNotes: text },
        }),
    },
    {
      name: 'operator key name',
      path: '/name',
      send: (text) =>
        t.inject({
          method: 'POST',
          url: `${OPERATOR}/keys`,
          headers: auth(app.root),
          payload: { name: text, scopes: ['reservations:read'] },
        }),
    },
    {
      name: 'webhook description',
      path: '/description',
      free: true,
      send: (text) =>
        t.inject({
          method: 'POST',
          url: `${OPERATOR}/webhook-endpoints`,
          headers: auth(app.root),
          payload: { url: 'http://127.0.0.1:9/hook', events: ['reservation.*'], description: text },
        }),
    },
    {
      name: 'cancellation reason',
      path: '/reason',
      free: true,
      send: (text) =>
        t.inject({
          method: 'POST',
          url: `/api/v1/booking/reservations/${booked.code}/cancel`,
          headers: bearer(booked.token),
          payload: { reason: text },
        }),
    },
  ];

  for (const place of places) {
    it(`${place.name}: 400 validation_error at ${place.path}`, async () => {
      for (const text of [...BIDI, ...CONTROL]) {
        const body = assertInvalid(await place.send(text), place.path);
        assert.match(body.errors[0].message, /control/, JSON.stringify(text));
      }
    });
  }

  it('free text keeps line breaks and tabs; names do not', async () => {
    const notes = await t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/reservations/${booked.code}`,
      headers: auth(app.root),
      payload: { internalNotes: 'late arrival\r\nsecond line\tend' },
    });
    assert.equal(notes.statusCode, 200, notes.body);
    assert.equal(notes.json().internalNotes, 'late arrival\r\nsecond line\tend');
    const name = await t.inject({
      method: 'PATCH',
      url: `/api/v1/booking/reservations/${booked.code}`,
      headers: bearer(booked.token),
      payload: { guest: { lastName: 'Silva\nSousa' } },
    });
    assertInvalid(name, '/guest/lastName');
  });

  it('nothing refused was stored: the desk shows the names as booked', async () => {
    const detail = await t.inject({
      method: 'GET',
      url: `${OPERATOR}/reservations/${booked.code}`,
      headers: auth(app.root),
    });
    assert.equal(detail.statusCode, 200, detail.body);
    assert.equal(detail.json().guest.lastName, 'Silva');
    assert.equal(/[\u202A-\u202E\u2066-\u2069]/.test(detail.body), false);
  });
});

describe('Cache-Control: no-store on every answer holding guest data', () => {
  let app: OperatorApp;
  let t: TestApp;
  let booked: Awaited<ReturnType<typeof bookStay>>;
  let session: string;
  before(async () => {
    app = await startOperatorApp();
    t = app.t;
    booked = await bookStay(t, app.hotels[0], { adults: 2 });
    session = (await openedSession(t, booked)).id;
    await stepOk(t, session, 'guest_details', GUEST_DETAILS);
    await stepOk(t, session, 'companions', { guests: [companion(1)] });
    await stepOk(t, session, 'identity_document', identityDocument(booked.checkOut));
    await stepOk(t, session, 'signature', SIGNATURE);
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.inject({ method: 'GET', url, headers });

  it('on the operator API: reservation list and detail, events, guest register, keys, hotels', async () => {
    const hotel = app.hotels[0].id;
    const key = auth(app.root);
    for (const url of [
      `${OPERATOR}/hotels/${hotel}/reservations`,
      `${OPERATOR}/reservations/${booked.code}`,
      `${OPERATOR}/reservations/R0000000`,
      `${OPERATOR}/events`,
      `${OPERATOR}/events?limit=1`,
      `${OPERATOR}/hotels/${hotel}/guest-register?date=${booked.checkIn}`,
      `${OPERATOR}/keys`,
      `${OPERATOR}/hotels`,
      `${OPERATOR}/audit-log`,
    ]) {
      const res = await get(url, key);
      assert.equal(res.headers['cache-control'], 'no-store', `${url}: ${res.statusCode}`);
    }
    // Unauthenticated answers too, and writes.
    assert.equal((await get(`${OPERATOR}/events`)).headers['cache-control'], 'no-store');
    const patched = await t.inject({
      method: 'PATCH',
      url: `${OPERATOR}/reservations/${booked.code}`,
      headers: key,
      payload: { internalNotes: 'VIP' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.headers['cache-control'], 'no-store');
  });

  it('on the guest’s reservation and check-in session, answers and errors alike', async () => {
    for (const res of [
      await get(`/api/v1/booking/reservations/${booked.code}`, bearer(booked.token)),
      await get(`/api/v1/booking/reservations/${booked.code}`),
      await get(`${CHECKIN}/sessions/${session}`),
      await t.inject({
        method: 'POST',
        url: `${CHECKIN}/sessions`,
        payload: { reservationId: booked.code, lastName: 'Silva' },
      }),
      await t.inject({
        method: 'PATCH',
        url: `/api/v1/booking/reservations/${booked.code}`,
        headers: bearer(booked.token),
        payload: { specialRequests: 'quiet room' },
      }),
    ]) {
      assert.equal(res.headers['cache-control'], 'no-store', `${res.statusCode} ${res.body.slice(0, 80)}`);
    }
  });
});
