import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import {
  addDays,
  assertInvalid,
  assertProblem,
  BOOKING,
  book,
  cancel,
  type Json,
  localToday,
  modify,
  type QuoteBody,
  quoteOk,
  requestQuote,
  reserve,
  search,
  startBookingApp,
  stay,
} from './helpers.ts';

// The problem codes of the booking endpoints that are not about rooms or money (API.md section 1):
// validation_error, unauthorized, forbidden, not_found, method_not_allowed, payload_too_large,
// unsupported_media_type. Every one is RFC 9457 problem+json with code, status, type and requestId.

const hotels = {
  main: makeHotel(),
  ahead: makeHotel({ timezone: 'Pacific/Kiritimati' }), // UTC+14: its today is often UTC's tomorrow
  behind: makeHotel({ timezone: 'Pacific/Pago_Pago' }), // UTC-11: its today is often UTC's yesterday
  longStay: makeHotel({ maxDaysBeforeArrival: 500 }),
  access: makeHotel(),
};

let t: TestApp;
before(async () => {
  t = await startBookingApp({ hotels: Object.values(hotels) });
});
after(() => t.close());

function valid(): QuoteBody {
  const { checkIn, checkOut } = stay(t, 20, 2);
  return { hotelId: hotels.main.id, checkIn, checkOut, adults: 2, roomTypeId: 'double', ratePlanId: 'flex' };
}

/** The search part of a quote body. */
function searchBody(): Json {
  const { roomTypeId, ratePlanId, ...rest } = valid();
  return rest;
}

function raw(
  method: 'POST' | 'PATCH',
  url: string,
  payload: string | Buffer,
  headers: Record<string, string> = {},
) {
  return t.inject({ method, url, payload, headers: { 'content-type': 'application/json', ...headers } });
}

describe('validation_error (400)', () => {
  it('answers malformed JSON, an empty or non-object body with path "/"', async () => {
    for (const url of ['availability/search', 'quote', 'reservations']) {
      assertInvalid(await raw('POST', `${BOOKING}/${url}`, '{"hotelId": '), '/');
      assertInvalid(await raw('POST', `${BOOKING}/${url}`, ''), '/');
      assertInvalid(await raw('POST', `${BOOKING}/${url}`, '[1, 2]'), '/');
      assertInvalid(await raw('POST', `${BOOKING}/${url}`, 'null'), '/');
    }
  });

  it('refuses a body that tries prototype pollution', async () => {
    const body = JSON.stringify(searchBody()).replace('{', '{"__proto__": {"admin": true},');
    const refused = assertInvalid(await raw('POST', `${BOOKING}/availability/search`, body), '/__proto__');
    assert.match(refused.errors[0].message, /__proto__ is not allowed/);
  });

  it('names every missing required field', async () => {
    assertInvalid(await search(t, {} as never), '/hotelId', '/checkIn', '/checkOut', '/adults');
    const { roomTypeId, ratePlanId, ...noChoice } = valid();
    assertInvalid(await requestQuote(t, noChoice as QuoteBody), '/roomTypeId', '/ratePlanId');
  });

  it('refuses unknown fields rather than dropping them', async () => {
    assertInvalid(await search(t, { ...searchBody(), voucher: 'SUMMER' } as never), '/voucher');
    assertInvalid(await requestQuote(t, { ...valid(), price: 1 } as QuoteBody), '/price');
  });

  it('refuses wrong types without coercing them', async () => {
    const cases: Array<[Json, string]> = [
      [{ adults: '2' }, '/adults'],
      [{ adults: 1.5 }, '/adults'],
      [{ rooms: '1' }, '/rooms'],
      [{ children: 7 }, '/children'],
      [{ children: ['7'] }, '/children/0'],
      [{ children: [1.5] }, '/children/0'],
      [{ services: 'breakfast' }, '/services'],
      [{ services: [1] }, '/services/0'],
      [{ hotelId: 42 }, '/hotelId'],
      [{ checkIn: 20270301 }, '/checkIn'],
      [{ checkIn: '2027-3-1' }, '/checkIn'],
      [{ checkIn: '2027-02-30' }, '/checkIn'],
      [{ checkOut: '01/03/2027' }, '/checkOut'],
      [{ checkOut: '2027-03-01T00:00:00Z' }, '/checkOut'],
    ];
    for (const [patch, path] of cases) {
      assertInvalid(await search(t, { ...searchBody(), ...patch }), path);
    }
  });

  it('enforces the bounds: adults 1–100, rooms 1–20, at most 50 children aged 0–17', async () => {
    const cases: Array<[Json, string]> = [
      [{ adults: 0 }, '/adults'],
      [{ adults: 101 }, '/adults'],
      [{ adults: -1 }, '/adults'],
      [{ rooms: 0 }, '/rooms'],
      [{ adults: 21, rooms: 21 }, '/rooms'],
      [{ children: Array.from({ length: 51 }, () => 5) }, '/children'],
      [{ children: [-1] }, '/children/0'],
      [{ children: [4, 18] }, '/children/1'],
    ];
    for (const [patch, path] of cases) {
      assertInvalid(await search(t, { ...searchBody(), ...patch }), path);
    }
    // The limits themselves are accepted (validation passes; the answer is about rooms).
    for (const patch of [
      { adults: 100 },
      { adults: 20, rooms: 20 },
      { adults: 1, children: Array.from({ length: 50 }, () => 17) },
    ]) {
      const res = await search(t, { ...searchBody(), ...patch });
      assert.ok([200, 409].includes(res.statusCode), res.body);
    }
  });

  it('requires adults ≥ rooms: every room needs an adult', async () => {
    assertInvalid(await search(t, { ...searchBody(), adults: 2, rooms: 3 }), '/adults');
    assertInvalid(await requestQuote(t, { ...valid(), adults: 1, rooms: 2 }), '/adults');
  });

  it('requires checkOut after checkIn and at most 365 nights', async () => {
    const { checkIn } = valid();
    assertInvalid(await search(t, { ...searchBody(), checkOut: checkIn }), '/checkOut');
    assertInvalid(await search(t, { ...searchBody(), checkOut: addDays(checkIn, -1) }), '/checkOut');
    assertInvalid(await search(t, { ...searchBody(), checkOut: addDays(checkIn, 366) }), '/checkOut');
    const h = hotels.longStay;
    const year = await search(t, { hotelId: h.id, checkIn, checkOut: addDays(checkIn, 365), adults: 1 });
    assert.equal(year.statusCode, 200, year.body);
    assert.equal(year.json().nights, 365);
  });

  it('refuses a check-in in the past, judged by the hotel-local date', async () => {
    assertInvalid(await search(t, { ...searchBody(), checkIn: addDays(localToday(t), -1) }), '/checkIn');
    for (const h of [hotels.ahead, hotels.behind]) {
      const today = localToday(t, h.timezone);
      const body = { hotelId: h.id, adults: 1, roomTypeId: 'double', ratePlanId: 'flex' };
      const yesterday = await requestQuote(t, {
        ...body,
        checkIn: addDays(today, -1),
        checkOut: addDays(today, 1),
      });
      assertInvalid(yesterday, '/checkIn');
      const ok = await requestQuote(t, { ...body, checkIn: today, checkOut: addDays(today, 1) });
      assert.equal(ok.statusCode, 201, `${h.timezone} ${today}: ${ok.body}`);
    }
  });

  it('refuses unknown catalogue ids: hotel, room type, rate plan, service', async () => {
    assertInvalid(await search(t, { ...searchBody(), hotelId: 'no-such-hotel' }), '/hotelId');
    assertInvalid(await search(t, { ...searchBody(), services: ['breakfast', 'spa'] }), '/services/1');
    // The pointer is into the body as sent, repeated ids included.
    assertInvalid(
      await search(t, { ...searchBody(), services: ['breakfast', 'breakfast', 'spa'] }),
      '/services/2',
    );
    assertInvalid(
      await requestQuote(t, { ...valid(), services: ['parking', 'parking', 'parking', 'gym'] }),
      '/services/3',
    );
    assertInvalid(await requestQuote(t, { ...valid(), roomTypeId: 'penthouse' }), '/roomTypeId');
    assertInvalid(await requestQuote(t, { ...valid(), ratePlanId: 'corporate' }), '/ratePlanId');
    assertInvalid(
      await requestQuote(t, { ...valid(), roomTypeId: 'penthouse', ratePlanId: 'corporate' }),
      '/roomTypeId',
      '/ratePlanId',
    );
    // Ids of another hotel are unknown here.
    assertInvalid(await requestQuote(t, { ...valid(), hotelId: 'no-such-hotel' }), '/hotelId');
  });

  it('refuses a rate plan that does not sell the room type', async () => {
    // nonref prices only the double.
    assertInvalid(
      await requestQuote(t, { ...valid(), roomTypeId: 'suite', ratePlanId: 'nonref' }),
      '/ratePlanId',
    );
  });

  it('reports several problems at once', async () => {
    const { checkIn } = valid();
    const body = assertInvalid(
      await search(t, { ...searchBody(), checkOut: checkIn, adults: 1, rooms: 2, services: ['spa'] }),
      '/checkOut',
      '/adults',
      '/services/0',
    );
    assert.equal(body.errors.length, 3);
  });
});

describe('never 500 for bad input', () => {
  it('answers odd but well-formed bodies with a 4xx problem', async () => {
    const quote = await quoteOk(t, valid());
    const { reservation, token } = await book(t, { ...valid(), hotelId: hotels.access.id });
    const far = ['9999-12-30', '9999-12-31'];
    const cases: Array<[string, () => ReturnType<TestApp['inject']>]> = [
      ['far-future stay', () => search(t, { ...searchBody(), checkIn: far[0], checkOut: far[1] })],
      ['year 1', () => search(t, { ...searchBody(), checkIn: '0001-01-01', checkOut: '0001-01-02' })],
      ['huge adults', () => search(t, { ...searchBody(), adults: 1e300 })],
      ['null child', () => search(t, { ...searchBody(), children: [null] })],
      ['null service', () => search(t, { ...searchBody(), services: [null] })],
      ['long hotel id', () => search(t, { ...searchBody(), hotelId: 'h'.repeat(10_000) })],
      [
        'many services',
        () => search(t, { ...searchBody(), services: Array.from({ length: 51 }, (_, i) => `s${i}`) }),
      ],
      ['long quote id', () => reserve(t, 'q'.repeat(10_000))],
      [
        'NUL in a name',
        () => reserve(t, quote.id, { guest: { firstName: 'A\u0000na', lastName: 'S', email: 'a@b.co' } }),
      ],
      ['NUL in requests', () => reserve(t, quote.id, { specialRequests: 'late\u0000' })],
      ['long requests', () => reserve(t, quote.id, { specialRequests: 'x'.repeat(2001) })],
      ['patch far future', () => modify(t, reservation.id, token, { checkIn: far[0], checkOut: far[1] })],
      ['patch NUL', () => modify(t, reservation.id, token, { guest: { lastName: '\u0000' } })],
      ['patch null body', () => modify(t, reservation.id, token, null)],
      ['cancel NUL reason', () => cancel(t, reservation.id, token, { reason: '\u0000' })],
      ['huge bearer', () => cancel(t, reservation.id, `rat_${'x'.repeat(8000)}`)],
    ];
    for (const [name, send] of cases) {
      const res = await send();
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${name}: ${res.statusCode} ${res.body}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/, name);
    }
    // None of it touched the reservation or the quote.
    assert.equal((await modify(t, reservation.id, token, { specialRequests: 'fine' })).json().version, 2);
    assert.equal((await reserve(t, quote.id)).statusCode, 201);
  });
});

describe('unauthorized, forbidden, not_found', () => {
  it('answers 401 unauthorized without a bearer token, on PATCH and cancel', async () => {
    const { reservation } = await book(t, { ...valid(), hotelId: hotels.access.id });
    const url = `${BOOKING}/reservations/${reservation.id}`;
    for (const authorization of [undefined, '', 'Basic YWxhZGRpbjpvcGVuc2VzYW1l', 'Bearer', 'Bearer ']) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      const patched = await t.inject({ method: 'PATCH', url, payload: { specialRequests: 'x' }, headers });
      assertProblem(patched, 401, 'unauthorized');
      assert.match(String(patched.headers['www-authenticate']), /^Bearer/);
      assertProblem(await t.inject({ method: 'POST', url: `${url}/cancel`, headers }), 401, 'unauthorized');
    }
  });

  it("answers 403 forbidden for another reservation's token or a made-up one", async () => {
    const mine = await book(t, { ...valid(), hotelId: hotels.access.id });
    const theirs = await book(t, { ...valid(), hotelId: hotels.access.id });
    for (const token of [theirs.token, 'rat_made_up', mine.token.toUpperCase()]) {
      assertProblem(await modify(t, mine.reservation.id, token, { specialRequests: 'x' }), 403, 'forbidden');
      assertProblem(await cancel(t, mine.reservation.id, token), 403, 'forbidden');
    }
    // Nothing changed: the owner's next change is version 2.
    const ok = await modify(t, mine.reservation.id, mine.token, { specialRequests: 'mine' });
    assert.equal(ok.json().version, 2);
    assert.equal(ok.json().status, 'confirmed');
  });

  it('reads the confirmation code the Crockford way: lower case and hyphens work', async () => {
    const { reservation, token } = await book(t, { ...valid(), hotelId: hotels.access.id });
    const code = reservation.id as string;
    const spelled = `${code.slice(0, 3)}-${code.slice(3)}`.toLowerCase();
    const res = await modify(t, spelled, token, { specialRequests: 'lower case' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().id, code);
  });

  it('answers 404 not_found for an unknown confirmation code, whatever the token', async () => {
    const { token } = await book(t, { ...valid(), hotelId: hotels.access.id });
    for (const code of ['ZZZZZZZZZ', '000000000', '!!!', 'a'.repeat(32)]) {
      assertProblem(
        await modify(t, encodeURIComponent(code), token, { specialRequests: 'x' }),
        404,
        'not_found',
      );
      assertProblem(await cancel(t, encodeURIComponent(code), token), 404, 'not_found');
    }
  });

  it('answers 404 not_found for unknown routes', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/nope'],
      ['POST', `${BOOKING}/availability`],
      ['POST', '/api/v2/booking/quote'],
      ['GET', '/'],
    ] as const) {
      assertProblem(await t.inject({ method, url }), 404, 'not_found');
    }
  });
});

describe('method_not_allowed, payload_too_large, unsupported_media_type', () => {
  it('answers 405 with an Allow header for a known path and an unserved method', async () => {
    for (const [method, url, allow] of [
      ['GET', `${BOOKING}/availability/search`, 'POST'],
      ['PUT', `${BOOKING}/quote`, 'POST'],
      ['DELETE', `${BOOKING}/reservations`, 'POST'],
      ['DELETE', `${BOOKING}/reservations/R7K3M9Q2X`, 'GET, HEAD, PATCH'],
      ['GET', `${BOOKING}/reservations/R7K3M9Q2X/cancel`, 'POST'],
    ] as const) {
      const res = await t.inject({ method, url });
      assertProblem(res, 405, 'method_not_allowed');
      assert.equal(res.headers.allow, allow, `${method} ${url}`);
    }
  });

  it('answers 405 to QUERY (a method with a body) on a known path, with or without a body', async () => {
    // Its missing or foreign Content-Type is no reason for a 400 or 415: no route reads that body.
    for (const [url, allow] of [
      [`${BOOKING}/availability/search`, 'POST'],
      [`${BOOKING}/reservations/R7K3M9Q2X`, 'GET, HEAD, PATCH'],
      ['/healthz', 'GET, HEAD'],
      ['/api/v1/operator/hotels', 'GET, HEAD'],
    ] as const) {
      for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/json' }]) {
        const res = await t.inject({
          method: 'QUERY' as 'GET',
          url,
          headers,
          payload: 'content-type' in headers ? '{' : undefined,
        });
        assertProblem(res, 405, 'method_not_allowed');
        assert.equal(res.headers.allow, allow, url);
      }
    }
    // An unknown path stays 404, whatever its body.
    const unknown = await t.inject({ method: 'QUERY' as 'GET', url: `${BOOKING}/nowhere` });
    assertProblem(unknown, 404, 'not_found');
    const badJson = await t.inject({
      method: 'POST',
      url: `${BOOKING}/nowhere`,
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    assertProblem(badJson, 404, 'not_found');
  });

  it('answers 413 payload_too_large for a body over 1 MiB', async () => {
    const big = JSON.stringify({ ...searchBody(), padding: 'x'.repeat(1024 * 1024) });
    assertProblem(await raw('POST', `${BOOKING}/availability/search`, big), 413, 'payload_too_large');
    const quote = await quoteOk(t, valid());
    const reservation = JSON.stringify({
      quoteId: quote.id,
      guest: { firstName: 'A', lastName: 'B', email: 'a@b.co' },
      specialRequests: 'x'.repeat(1024 * 1024 + 1),
    });
    assertProblem(await raw('POST', `${BOOKING}/reservations`, reservation), 413, 'payload_too_large');
    // Just under the limit is read (and then refused for its unknown field, not its size).
    const under = JSON.stringify({ ...searchBody(), padding: '' });
    const pad = 'x'.repeat(1024 * 1024 - Buffer.byteLength(under));
    assertInvalid(
      await raw('POST', `${BOOKING}/availability/search`, JSON.stringify({ ...searchBody(), padding: pad })),
      '/padding',
    );
  });

  it('answers 415 unsupported_media_type for a body that is not JSON', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await raw('POST', `${BOOKING}/quote`, JSON.stringify(valid()), { 'content-type': type });
      assertProblem(res, 415, 'unsupported_media_type');
    }
    // A body without any Content-Type is not JSON either.
    const untyped = await t.inject({
      method: 'POST',
      url: `${BOOKING}/quote`,
      payload: JSON.stringify(valid()),
    });
    assertProblem(untyped, 415, 'unsupported_media_type');
    // The JSON type with parameters is JSON.
    const ok = await raw('POST', `${BOOKING}/quote`, JSON.stringify(valid()), {
      'content-type': 'application/json; charset=utf-8',
    });
    assert.equal(ok.statusCode, 201, ok.body);
  });
});
