import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import { assertProblem, bearer, book, modify, startBookingApp, stay } from './helpers.ts';

// GET /booking/reservations/{reservation} with the access token (API.md 2.6).

describe('read a reservation', () => {
  const hotel = makeHotel();
  let t: TestApp;
  before(async () => {
    t = await startBookingApp({ hotels: [hotel], env: { LOG_LEVEL: 'silent' } });
  });
  after(() => t.close());

  const read = (url: string, headers: Record<string, string> = {}) =>
    t.inject({ method: 'GET', url, headers });
  const booking = () =>
    book(t, { hotelId: hotel.id, ...stay(t, 12, 2), adults: 2, roomTypeId: 'double', ratePlanId: 'flex' });

  it('answers 200 with the reservation and its ETag at the Location of its creation', async () => {
    const quote = await t.inject({
      method: 'POST',
      url: '/api/v1/booking/quote',
      payload: { hotelId: hotel.id, ...stay(t, 12, 2), adults: 2, roomTypeId: 'double', ratePlanId: 'flex' },
    });
    const created = await t.inject({
      method: 'POST',
      url: '/api/v1/booking/reservations',
      payload: {
        quoteId: quote.json().id,
        guest: { firstName: 'Ana', lastName: 'Silva', email: 'a@example.com' },
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { accessToken, ...reservation } = created.json();
    const res = await read(String(created.headers.location), bearer(accessToken));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers.etag, created.headers.etag);
    assert.deepEqual(res.json(), reservation);
    assert.equal(res.json().accessToken, undefined);
    assert.deepEqual(res.json().stay, {
      status: 'expected',
      arrivedAt: null,
      departedAt: null,
      roomNumbers: [],
    });
  });

  it('follows changes: the new version and ETag', async () => {
    const { reservation, token } = await booking();
    await modify(t, reservation.id, token, { specialRequests: 'late arrival' });
    const res = await read(`/api/v1/booking/reservations/${reservation.id}`, bearer(token));
    assert.equal(res.headers.etag, '"2"');
    assert.equal(res.json().specialRequests, 'late arrival');
  });

  it('answers 401 without a token, 403 with another reservation’s, 404 for an unknown code', async () => {
    const mine = await booking();
    const other = await booking();
    const url = `/api/v1/booking/reservations/${mine.reservation.id}`;
    const missing = assertProblem(await read(url), 401, 'unauthorized');
    assert.ok(missing);
    assert.match(String((await read(url)).headers['www-authenticate']), /^Bearer/);
    assertProblem(await read(url, bearer(other.token)), 403, 'forbidden');
    assertProblem(await read('/api/v1/booking/reservations/R0000000X', bearer(mine.token)), 404, 'not_found');
    assertProblem(
      await read('/api/v1/booking/reservations/not-a-code!', bearer(mine.token)),
      404,
      'not_found',
    );
  });
});
