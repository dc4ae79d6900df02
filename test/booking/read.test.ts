import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reservationCodesRepository } from '../../src/reservations/reservation-codes.repository.ts';
import { statementCounter } from '../helpers/statement-counter.ts';
import { makeHotel, type TestApp } from '../helpers/test-app.ts';
import { assertProblem, bearer, book, modify, quoteOk, reserve, startBookingApp, stay } from './helpers.ts';

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

  it('reads by code without the code directory once the process knows the hotel, and finds it again when wrong', async () => {
    const counter = statementCounter();
    const counted = await startBookingApp({
      hotels: [hotel],
      env: { LOG_LEVEL: 'silent' },
      wrapDb: counter.wrap,
    });
    try {
      const quote = await quoteOk(counted, {
        hotelId: hotel.id,
        ...stay(counted, 14, 2),
        adults: 2,
        roomTypeId: 'double',
        ratePlanId: 'flex',
      });
      const created = await reserve(counted, quote.id);
      const { accessToken, id: code } = created.json();
      const get = () =>
        counter.count(() =>
          counted.inject({
            method: 'GET',
            url: `/api/v1/booking/reservations/${code}`,
            headers: bearer(accessToken),
          }),
        );
      const directory = (statements: string[]) => statements.filter((s) => /FROM reservation_codes/.test(s));
      // Booked by this process: its code's hotel is known, the read goes to the hotel's rows alone.
      const first = await get();
      assert.equal(first.result.statusCode, 200, first.result.body);
      assert.deepEqual(directory(first.statements), [], first.statements.join('\n'));
      // A hotel remembered wrongly (another database of the process, a claim rolled back): the
      // read finds nothing there, asks the directory, and answers the reservation all the same.
      reservationCodesRepository.remember(code, 'no-such-hotel');
      const again = await get();
      assert.equal(again.result.statusCode, 200, again.result.body);
      assert.equal(again.result.body, first.result.body);
      assert.equal(directory(again.statements).length, 1, again.statements.join('\n'));
      // The directory's answer is remembered: the next read skips it again.
      assert.deepEqual(directory((await get()).statements), []);
    } finally {
      await counted.close();
    }
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
