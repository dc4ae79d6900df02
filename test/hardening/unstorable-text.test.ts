import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import {
  assertInvalid,
  BOOKING,
  cancel,
  GUEST,
  type Json,
  modify,
  quoteOk,
  reserve,
  stay,
} from '../booking/helpers.ts';
import {
  bookStay,
  CHECKIN,
  GUEST_DETAILS,
  openedSession,
  startCheckinApp,
  submitStep,
} from '../checkin/helpers.ts';
import type { TestApp } from '../helpers/test-app.ts';

// Text PostgreSQL cannot store (an unpaired UTF-16 surrogate in jsonb, U+0000 anywhere) is refused
// as the body is parsed, for every string and key, with the path of the offending value; and keys
// that could pollute a prototype are refused by name rather than as "not valid JSON".

const LONE_HIGH = 'A\ud800B';
const LONE_LOW = 'A\udc00B';

let t: TestApp;
let hotel: HotelDef;
before(async () => {
  ({ t, hotel } = await startCheckinApp());
});
after(() => t.close());

function raw(method: 'POST' | 'PATCH', url: string, payload: string, headers: Record<string, string> = {}) {
  return t.inject({ method, url, payload, headers: { 'content-type': 'application/json', ...headers } });
}

async function quote(): Promise<Json> {
  const dates = stay(t, 10, 2, hotel.timezone);
  return quoteOk(t, { hotelId: hotel.id, ...dates, adults: 1, roomTypeId: 'double', ratePlanId: 'flex' });
}

function assertRefused(res: Awaited<ReturnType<TestApp['inject']>>, path: string, pattern: RegExp) {
  const body = assertInvalid(res, path);
  assert.match(body.errors[0].message, pattern, res.body);
  return body;
}

describe('unstorable text in a JSON body', () => {
  it("refuses an unpaired surrogate in a reservation's guest, and the quote stays usable", async () => {
    const q = await quote();
    for (const firstName of [LONE_HIGH, LONE_LOW, 'A\udc00\ud800B', 'B\ud800']) {
      const res = await reserve(t, q.id, { guest: { ...GUEST, firstName } });
      assertRefused(res, '/guest/firstName', /unpaired UTF-16 surrogate/);
    }
    // A surrogate pair (an emoji) is well-formed text, stored and returned as sent.
    const ok = await reserve(t, q.id, { guest: { ...GUEST, firstName: 'Ana 😀' } });
    assert.equal(ok.statusCode, 201, ok.body);
  });

  it("refuses one in a PATCH's guest and in the cancel reason, changing nothing", async () => {
    const booked = await bookStay(t, hotel);
    assertRefused(
      await modify(t, booked.code, booked.token, { guest: { lastName: LONE_HIGH } }),
      '/guest/lastName',
      /unpaired UTF-16 surrogate/,
    );
    assertRefused(
      await cancel(t, booked.code, booked.token, { reason: LONE_LOW }),
      '/reason',
      /unpaired UTF-16 surrogate/,
    );
    const { rows } = await t.db.query<{ status: string; guest: { lastName: string }; version: number }>(
      'SELECT status, guest, version FROM reservations WHERE code = $1',
      [booked.code],
    );
    assert.deepEqual(
      rows.map((r) => [r.status, r.guest.lastName, r.version]),
      [['confirmed', 'Silva', 1]],
    );
  });

  it('refuses one in the guest_details step, which stays pending', async () => {
    const booked = await bookStay(t, hotel);
    const { id } = await openedSession(t, booked);
    const res = await submitStep(t, id, 'guest_details', {
      ...GUEST_DETAILS,
      address: { ...GUEST_DETAILS.address, city: LONE_HIGH },
    });
    assertRefused(res, '/data/address/city', /unpaired UTF-16 surrogate/);
    const session = (await t.inject({ method: 'GET', url: `${CHECKIN}/sessions/${id}` })).json().session;
    assert.equal(session.nextStep, 'guest_details');
  });

  it('refuses it in a key too, and in array items, with the JSON pointer of the value', async () => {
    const q = await quote();
    const escapedKey = JSON.stringify({ quoteId: q.id, guest: GUEST, [`x${LONE_HIGH}`]: 1 });
    assertRefused(await raw('POST', `${BOOKING}/reservations`, escapedKey), `/x${LONE_HIGH}`, /surrogate/);
    const dates = stay(t, 10, 2, hotel.timezone);
    const search = JSON.stringify({ hotelId: hotel.id, ...dates, adults: 1, services: ['ok', LONE_LOW] });
    assertRefused(await raw('POST', `${BOOKING}/availability/search`, search), '/services/1', /surrogate/);
  });

  it('refuses NUL the same way, in values and keys', async () => {
    const q = await quote();
    assertRefused(
      await reserve(t, q.id, { specialRequests: 'late\u0000' }),
      '/specialRequests',
      /NUL character/,
    );
    const key = JSON.stringify({ quoteId: q.id, guest: GUEST, 'a\u0000': 1 });
    assertRefused(await raw('POST', `${BOOKING}/reservations`, key), '/a\u0000', /NUL character/);
  });
});

describe('prototype-polluting keys', () => {
  it('names the refused key __proto__ and where it is, at any depth and however it is escaped', async () => {
    const q = await quote();
    const top = `{"__proto__":{"admin":true},"quoteId":${JSON.stringify(q.id)}}`;
    assertRefused(
      await raw('POST', `${BOOKING}/reservations`, top),
      '/__proto__',
      /key __proto__ is not allowed/,
    );
    const deep = `{"quoteId":${JSON.stringify(q.id)},"guest":{"firstName":"A","\\u005f_proto__":{"x":1}}}`;
    assertRefused(
      await raw('POST', `${BOOKING}/reservations`, deep),
      '/guest/__proto__',
      /key __proto__ is not allowed/,
    );
  });

  it('names constructor.prototype, and lets "constructor" alone through to the schema', async () => {
    const q = await quote();
    const polluted = `{"quoteId":${JSON.stringify(q.id)},"constructor":{"prototype":{"admin":true}}}`;
    assertRefused(
      await raw('POST', `${BOOKING}/reservations`, polluted),
      '/constructor/prototype',
      /key prototype inside constructor is not allowed/,
    );
    // An ordinary unknown field, refused by the schema as such.
    const plain = `{"quoteId":${JSON.stringify(q.id)},"guest":${JSON.stringify(GUEST)},"constructor":1}`;
    assertRefused(await raw('POST', `${BOOKING}/reservations`, plain), '/constructor', /not a known field/);
  });
});
