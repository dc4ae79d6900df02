/**
 * Issue 32 item 10 (API.md section 1, text): names and free text refuse characters that render as
 * nothing — zero-width and format characters (U+200B–U+200F, U+2060…, U+FEFF), line and paragraph
 * separators, the soft hyphen, Hangul fillers, tag characters U+E0000–U+E007F — and unpaired
 * surrogates (`400 validation_error` at the field), in every request body that takes them, and
 * the catalogue refuses them in names. Before, `Ana\u200B` and `\u3164` were accepted as names.
 * Visible text of every script still passes (astral characters, emoji, accents).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseCatalog } from '../../src/catalog/catalog.validate.ts';
import { NAME_PATTERN, TEXT_PATTERN_MESSAGES } from '../../src/infra/http/text-schemas.ts';
import { assertInvalid, bearer, GUEST, type Json } from '../booking/helpers.ts';
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
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';

/** Each class of invisible character, a few of its members. */
const CLASSES: Record<string, string[]> = {
  'zero-width': ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF'],
  'directional marks': ['\u200E', '\u200F', '\u061C'],
  'line and paragraph separators': ['\u2028', '\u2029'],
  'soft hyphen': ['\u00AD'],
  'Hangul fillers': ['\u3164', '\u115F', '\u1160', '\uFFA0'],
  'tag characters': ['\u{E0001}', '\u{E0041}', '\u{E007F}'],
  'other format characters': ['\u034F', '\u180E', '\u2064', '\u206A', '\uFFF9'],
  'unpaired surrogates': ['\uD800', '\uDFFF'],
};
/** Visible text that must still pass wherever a name does. */
const VISIBLE = ['José Conceição', '𠮷野', 'Ana 😀', '❤️', 'Zoë-Ann O’Brien', 'Ελένη', 'محمد'];

describe('names and free text refuse characters that render as nothing', () => {
  let app: OperatorApp;
  let t: TestApp;
  let booked: Awaited<ReturnType<typeof bookStay>>;
  let fresh: string;
  let advanced: string;
  before(async () => {
    app = await startOperatorApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_WORKER: 'false' });
    t = app.t;
    booked = await bookStay(t, app.hotels[0], { adults: 2 });
    fresh = (await openedSession(t, booked)).id;
    const other = await bookStay(t, app.hotels[0], { adults: 2 });
    advanced = (await openedSession(t, other)).id;
    await stepOk(t, advanced, 'guest_details', GUEST_DETAILS);
    await stepOk(t, advanced, 'companions', { guests: [companion(1)] });
    await stepOk(t, advanced, 'identity_document', identityDocument(other.checkOut));
  });
  after(() => t.close());

  const step = (session: () => string, name: string, data: (text: string) => unknown) => (text: string) =>
    t.inject({
      method: 'POST',
      url: `${CHECKIN}/sessions/${session()}/step`,
      payload: { step: name, data: data(text) },
    });
  const operator =
    (method: 'POST' | 'PATCH', url: () => string, payload: (text: string) => object) => (text: string) =>
      t.inject({ method, url: url(), headers: auth(app.root), payload: payload(text) });
  const guest =
    (method: 'POST' | 'PATCH', url: () => string, payload: (text: string) => object) => (text: string) =>
      t.inject({ method, url: url(), headers: bearer(booked.token), payload: payload(text) });
  const reservation = () => `/api/v1/booking/reservations/${booked.code}`;
  const desk = () => `${OPERATOR}/reservations/${booked.code}`;

  /** Every name and free-text field of a request body: how to send `text` in it, and its path. */
  const fields: Array<{ name: string; path: string; send: (text: string) => Promise<Json> }> = [
    {
      name: 'reservation guest first name',
      path: '/guest/firstName',
      send: (text) =>
        t.inject({
          method: 'POST',
          url: '/api/v1/booking/reservations',
          payload: { quoteId: 'q_none', guest: { ...GUEST, firstName: text } },
        }),
    },
    {
      name: 'reservation special requests',
      path: '/specialRequests',
      send: (text) =>
        t.inject({
          method: 'POST',
          url: '/api/v1/booking/reservations',
          payload: { quoteId: 'q_none', guest: GUEST, specialRequests: `late ${text}` },
        }),
    },
    {
      name: 'guest change: first name',
      path: '/guest/firstName',
      send: guest('PATCH', reservation, (x) => ({ guest: { firstName: x } })),
    },
    {
      name: 'guest change: last name',
      path: '/guest/lastName',
      send: guest('PATCH', reservation, (x) => ({ guest: { lastName: x } })),
    },
    {
      name: 'guest change: special requests',
      path: '/specialRequests',
      send: guest('PATCH', reservation, (x) => ({ specialRequests: x })),
    },
    {
      name: 'guest cancellation reason',
      path: '/reason',
      send: guest(
        'POST',
        () => `${reservation()}/cancel`,
        (x) => ({ reason: x }),
      ),
    },
    {
      name: 'check-in proof last name',
      path: '/lastName',
      send: (text) =>
        t.inject({
          method: 'POST',
          url: `${CHECKIN}/sessions`,
          payload: { reservationId: booked.code, lastName: `Silva${text}` },
        }),
    },
    ...(['firstName', 'lastName'] as const).map((field) => ({
      name: `check-in guest details ${field}`,
      path: `/data/${field}`,
      send: step(
        () => fresh,
        'guest_details',
        (x) => ({ ...GUEST_DETAILS, [field]: x }),
      ),
    })),
    ...(['line1', 'city', 'postalCode'] as const).map((field) => ({
      name: `check-in address ${field}`,
      path: `/data/address/${field}`,
      send: step(
        () => fresh,
        'guest_details',
        (x) => ({
          ...GUEST_DETAILS,
          address: { ...GUEST_DETAILS.address, [field]: x },
        }),
      ),
    })),
    ...(['firstName', 'lastName'] as const).map((field) => ({
      name: `check-in companion ${field}`,
      path: `/data/guests/0/${field}`,
      send: step(
        () => advanced,
        'companions',
        (x) => ({ guests: [{ ...companion(1), [field]: x }] }),
      ),
    })),
    {
      name: 'check-in signer name',
      path: '/data/signerName',
      send: step(
        () => advanced,
        'signature',
        (x) => ({ ...SIGNATURE, signerName: x }),
      ),
    },
    {
      name: 'desk change: internal notes',
      path: '/internalNotes',
      send: operator('PATCH', desk, (x) => ({ internalNotes: x })),
    },
    {
      name: 'desk change: guest last name',
      path: '/guest/lastName',
      send: operator('PATCH', desk, (x) => ({ guest: { lastName: x } })),
    },
    {
      name: 'desk cancellation reason',
      path: '/reason',
      send: operator(
        'POST',
        () => `${desk()}/cancel`,
        (x) => ({ reason: x }),
      ),
    },
    {
      name: 'desk arrival room number',
      path: '/roomNumbers/0',
      send: operator(
        'POST',
        () => `${desk()}/arrive`,
        (x) => ({ roomNumbers: [`20${x}`] }),
      ),
    },
    {
      name: 'operator key name',
      path: '/name',
      send: operator(
        'POST',
        () => `${OPERATOR}/keys`,
        (x) => ({ name: x, scopes: ['reservations:read'] }),
      ),
    },
    {
      name: 'webhook description',
      path: '/description',
      send: operator(
        'POST',
        () => `${OPERATOR}/webhook-endpoints`,
        (x) => ({
          url: 'http://127.0.0.1:9/hook',
          events: ['reservation.*'],
          description: x,
        }),
      ),
    },
    {
      name: 'iCal import name',
      path: '/name',
      send: operator(
        'POST',
        () => `${OPERATOR}/hotels/${app.hotels[0].id}/ical-imports`,
        (x) => ({
          roomTypeId: 'double',
          url: 'https://calendar.example.com/x.ics',
          name: x,
        }),
      ),
    },
  ];

  for (const field of fields) {
    it(`${field.name}: 400 validation_error at ${field.path} for each class`, async () => {
      for (const [kind, characters] of Object.entries(CLASSES)) {
        for (const character of characters) {
          for (const text of [`Ana${character}`, character, `${character}Ana`]) {
            const what = `${kind} ${JSON.stringify(text)}`;
            const res = await field.send(text);
            assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
            assert.equal(res.json().code, 'validation_error', what);
            assert.ok(
              res.json().errors.some((e: { path: string }) => e.path === field.path),
              `${what}: ${res.body}`,
            );
          }
        }
      }
    });
  }

  it('says what is refused, naming the invisible characters', async () => {
    const body = assertInvalid(
      await guest('PATCH', reservation, (x) => ({ guest: { firstName: x } }))('Ana\u200B'),
      '/guest/firstName',
    );
    assert.equal(body.errors[0].message, TEXT_PATTERN_MESSAGES[NAME_PATTERN]);
    assert.match(body.errors[0].message, /render as nothing/);
  });

  it('keeps visible text of every script, astral characters and emoji included', async () => {
    for (const text of VISIBLE) {
      const res = await guest('PATCH', reservation, (x) => ({ guest: { firstName: x } }))(text);
      assert.equal(res.statusCode, 200, `${JSON.stringify(text)}: ${res.body}`);
      assert.equal(res.json().guest.firstName, text);
    }
  });

  it('the catalogue refuses them in names (hotel, room type, rate plan, by language too)', () => {
    for (const [kind, characters] of Object.entries(CLASSES)) {
      for (const character of characters) {
        const base = makeHotel();
        const name = `Double${character}`;
        const roomTypes = base.roomTypes.map((r, i) => (i === 0 ? { ...r, name: { en: name } } : r));
        for (const hotel of [
          { ...base, name },
          { ...base, roomTypes },
        ]) {
          assert.throws(() => parseCatalog({ hotels: [hotel] }), /render as nothing|must not/, kind);
        }
      }
    }
    assert.doesNotThrow(() => parseCatalog({ hotels: [{ ...makeHotel(), name: '𠮷野 Inn 😀' }] }));
  });
});
