/**
 * The hotel's side of a reservation (API.md 7.2, 7.5, 8.1) through HTTP: reading it with its
 * check-in, changing and cancelling it as the hotel, the front desk's arrive / depart / no-show,
 * room numbers, and the events each change writes in its own transaction.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addDays,
  assertInvalid,
  assertProblem,
  bearer,
  eur,
  modify,
  post,
  roomsLeft,
  stay,
} from '../booking/helpers.ts';
import { GUEST_DETAILS, openedSession, stepOk } from '../checkin/helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { makeKey, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { arrived, bookStay, eventsOf, onReservation } from './reservation-helpers.ts';

describe('operator reservations', () => {
  let app: OperatorApp;
  let hotel: string;
  before(async () => {
    const numbered = makeHotel({ name: 'Harbour View' });
    numbered.roomTypes = numbered.roomTypes.map((rt) =>
      rt.id === 'double' ? { ...rt, roomNumbers: ['101', '102', '103'] } : rt,
    );
    app = await startOperatorApp({}, [numbered, makeHotel({ name: 'Old Town' })]);
    hotel = numbered.id;
  });
  after(() => app.t.close());

  const op = (
    method: 'GET' | 'PATCH' | 'POST',
    code: string,
    path = '',
    payload?: unknown,
    headers?: Record<string, string>,
  ) => onReservation(app.t, app.root, method, code, path, payload, headers);

  it('reads the operator object with ETag and the masked check-in progress, never the session id', async () => {
    const booked = await bookStay(app.t, hotel, { fromToday: 5, nights: 3 });
    let res = await op('GET', booked.code);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers.etag, '"1"');
    let body = res.json();
    assert.equal(body.id, booked.code);
    assert.equal(body.source, 'api');
    assert.equal(body.internalNotes, null);
    assert.deepEqual(body.stay, { status: 'expected', arrivedAt: null, departedAt: null, roomNumbers: [] });
    assert.deepEqual(body.checkin, { status: 'not_started', steps: [] });
    assert.equal(body.accessToken, undefined);

    const session = await openedSession(app.t, {
      ...booked,
      checkIn: booked.reservation.checkIn,
      checkOut: booked.reservation.checkOut,
    });
    await stepOk(app.t, session.id, 'guest_details', GUEST_DETAILS);
    res = await op('GET', booked.code);
    body = res.json();
    assert.equal(body.checkin.status, 'in_progress');
    assert.equal(body.checkin.steps[0].name, 'guest_details');
    assert.equal(body.checkin.steps[0].status, 'completed');
    assert.equal(body.checkin.steps[0].data.lastName, 'Silva');
    assert.ok(!res.body.includes(session.id), 'the session id is the guest’s secret');
    assert.ok(!res.body.includes('cks_'));
  });

  it('answers 404 for a reservation outside the key’s hotels and for an unknown code', async () => {
    const booked = await bookStay(app.t, hotel);
    const { key } = await makeKey(app, { scopes: ['reservations:read'], hotelIds: [app.hotels[1].id] });
    const foreign = await onReservation(app.t, key, 'GET', booked.code);
    const missing = await onReservation(app.t, key, 'GET', 'R0000000X');
    assertProblem(foreign, 404, 'not_found');
    assert.equal(foreign.json().detail, assertProblem(missing, 404, 'not_found').detail);
  });

  it('changes a non-refundable stay only with force, and keeps internal notes from the guest', async () => {
    const booked = await bookStay(app.t, hotel, { fromToday: 20, nights: 2, ratePlanId: 'nonref' });
    const { checkIn, checkOut } = booked.reservation;
    const shifted = { checkIn: checkOut, checkOut: addDays(checkOut, 2) };
    assertProblem(await op('PATCH', booked.code, '', shifted), 409, 'not_modifiable');
    let res = await op('PATCH', booked.code, '', {
      ...shifted,
      force: true,
      internalNotes: 'moved by phone',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers.etag, '"2"');
    assert.equal(res.json().checkIn, checkOut);
    assert.equal(res.json().internalNotes, 'moved by phone');
    assert.notEqual(checkIn, checkOut);

    // The guest sees neither the notes nor the source, and may not send force or internalNotes.
    const guestView = await app.t.inject({
      method: 'GET',
      url: `/api/v1/booking/reservations/${booked.code}`,
      headers: bearer(booked.token),
    });
    assert.equal(guestView.statusCode, 200, guestView.body);
    assert.equal(guestView.json().internalNotes, undefined);
    assert.equal(guestView.json().source, undefined);
    assertInvalid(await modify(app.t, booked.code, booked.token, { checkIn, force: true }), '/force');
    assertInvalid(await modify(app.t, booked.code, booked.token, { internalNotes: 'x' }), '/internalNotes');
    assertInvalid(
      await post(app.t, `reservations/${booked.code}/cancel`, { waiveFee: true }, bearer(booked.token)),
      '/waiveFee',
    );

    // Notes: at most 5000 characters, null clears them; If-Match is honoured.
    assertInvalid(await op('PATCH', booked.code, '', { internalNotes: 'x'.repeat(5001) }), '/internalNotes');
    assertProblem(
      await op('PATCH', booked.code, '', { internalNotes: null }, { 'if-match': '"1"' }),
      412,
      'precondition_failed',
    );
    res = await op('PATCH', booked.code, '', { internalNotes: null }, { 'if-match': '"2"' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().internalNotes, null);
    assert.equal(res.json().version, 3);
  });

  it('cancels with the fee waived, refunding everything paid', async () => {
    const booked = await bookStay(app.t, hotel, { fromToday: 30, nights: 2, ratePlanId: 'nonref' });
    const total = booked.reservation.total.amount;
    const res = await op('POST', booked.code, '/cancel', { reason: 'flight cancelled', waiveFee: true });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.status, 'cancelled');
    assert.deepEqual(body.cancellation.fee, eur(0));
    assert.deepEqual(body.cancellation.refund, eur(total));
    assert.equal(body.payment.status, 'refunded');
    assert.deepEqual(
      (await eventsOf(app.t, booked.code)).map((e) => e.type),
      ['reservation.created', 'payment.succeeded', 'reservation.cancelled', 'payment.refunded'],
    );
    // Without waiveFee a non-refundable plan keeps the whole total.
    const other = await bookStay(app.t, hotel, { fromToday: 30, nights: 2, ratePlanId: 'nonref' });
    const kept = (await op('POST', other.code, '/cancel')).json();
    assert.deepEqual(kept.cancellation.fee, eur(total));
  });

  it('records arrival and departure on the hotel’s dates only, saying why otherwise', async () => {
    const booked = await bookStay(app.t, hotel, { fromToday: 1, nights: 2 });
    let res = await op('POST', booked.code, '/arrive', {});
    assert.match(assertProblem(res, 409, 'not_modifiable').detail, /Too early/);
    assert.match(
      assertProblem(await op('POST', booked.code, '/depart'), 409, 'not_modifiable').detail,
      /not arrived/,
    );
    app.t.clock.advanceDays(1);
    assert.match(
      assertProblem(await op('POST', booked.code, '/no-show', {}), 409, 'not_modifiable').detail,
      /Too early/,
    );
    res = await op('POST', booked.code, '/arrive');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().stay.status, 'in_house');
    assert.ok(res.json().stay.arrivedAt);
    assert.match(
      assertProblem(await op('POST', booked.code, '/arrive', {}), 409, 'not_modifiable').detail,
      /already arrived/,
    );
    assertProblem(await op('POST', booked.code, '/no-show', {}), 409, 'not_modifiable');
    assertProblem(await op('POST', booked.code, '/cancel', {}), 409, 'not_modifiable');
    res = await op('POST', booked.code, '/depart', {});
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().stay.status, 'checked_out');
    assert.ok(res.json().stay.departedAt);
    assert.equal(res.json().status, 'confirmed');
    assert.match(
      assertProblem(await op('POST', booked.code, '/depart'), 409, 'not_modifiable').detail,
      /checked out/,
    );
    assert.deepEqual(
      (await eventsOf(app.t, booked.code)).map((e) => e.type),
      ['reservation.created', 'reservation.arrived', 'reservation.departed'],
    );
    // A cancelled stay cannot arrive.
    const cancelled = await bookStay(app.t, hotel, { fromToday: 0, nights: 1 });
    await op('POST', cancelled.code, '/cancel');
    assert.match(
      assertProblem(await op('POST', cancelled.code, '/arrive'), 409, 'not_modifiable').detail,
      /cancelled/,
    );
  });

  it('records a no-show from the next day: rooms released, the penalty as fee unless waived', async () => {
    const booked = await bookStay(app.t, hotel, { fromToday: 1, nights: 3 });
    const waived = await bookStay(app.t, hotel, { fromToday: 1, nights: 3 });
    const { checkIn, checkOut } = booked.reservation;
    const before = await roomsLeft(app.t, hotel, 'double', addDays(checkIn, 2), checkOut);
    app.t.clock.advanceDays(2);
    let res = await op('POST', booked.code, '/no-show', {});
    assert.equal(res.statusCode, 200, res.body);
    let body = res.json();
    assert.equal(body.stay.status, 'no_show');
    assert.equal(body.status, 'cancelled');
    assert.equal(body.cancellation.reason, 'no_show');
    assert.deepEqual(body.cancellation.fee, eur(12000), 'the first night, as a late cancellation');
    assert.deepEqual(body.payment.due, eur(12000));
    assert.equal(await roomsLeft(app.t, hotel, 'double', addDays(checkIn, 2), checkOut), before + 1);
    assertProblem(await op('POST', booked.code, '/no-show', {}), 409, 'not_modifiable');

    res = await op('POST', waived.code, '/no-show', { waiveFee: true });
    body = res.json();
    assert.deepEqual(body.cancellation.fee, eur(0));
    assert.deepEqual(body.payment.due, eur(0));
    assert.deepEqual(
      (await eventsOf(app.t, booked.code)).map((e) => e.type),
      ['reservation.created', 'reservation.no_show'],
    );
  });

  it('gives room numbers of the room type only, as many as the rooms, never one held by another stay', async () => {
    const first = await bookStay(app.t, hotel, { fromToday: 0, nights: 3 });
    const second = await bookStay(app.t, hotel, { fromToday: 0, nights: 1 });
    assertInvalid(await op('POST', first.code, '/arrive', { roomNumbers: ['999'] }), '/roomNumbers/0');
    assertInvalid(await op('POST', first.code, '/arrive', { roomNumbers: ['101', '102'] }), '/roomNumbers');
    const body = await arrived(app.t, app.root, first.code, ['101']);
    assert.deepEqual(body.stay.roomNumbers, ['101']);
    const taken = assertProblem(
      await op('POST', second.code, '/arrive', { roomNumbers: ['101'] }),
      409,
      'no_availability',
    );
    assert.match(taken.detail, /Room 101/);
    assert.equal((await op('GET', second.code)).json().stay.status, 'expected', 'nothing changed');
    assert.deepEqual((await arrived(app.t, app.root, second.code, ['102'])).stay.roomNumbers, ['102']);
  });
});

describe('events are written in the transaction of the change', () => {
  let app: OperatorApp;
  before(async () => {
    app = await startOperatorApp();
  });
  after(() => app.t.close());

  const countEvents = async (hotelId: string) =>
    (
      await app.t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE hotel_id = $1', [
        hotelId,
      ])
    ).rows[0]?.n;

  it('a created reservation leaves exactly one reservation.created, without secrets', async () => {
    const hotelId = app.hotels[0].id;
    const booked = await bookStay(app.t, hotelId);
    const events = await eventsOf(app.t, booked.code);
    assert.deepEqual(
      events.map((e) => e.type),
      ['reservation.created'],
    );
    const data = events[0]?.data;
    assert.equal(data.reservation.id, booked.code);
    assert.equal(data.reservation.source, 'api');
    assert.equal(data.reservation.internalNotes, null);
    assert.ok(!JSON.stringify(data).includes(booked.token));
    assert.ok(!JSON.stringify(data).includes('rat_'));
    assert.equal(await countEvents(hotelId), 1);
  });

  it('a declined payment leaves no event, and a paid one adds payment.succeeded', async () => {
    const hotelId = app.hotels[1].id;
    const { checkIn, checkOut } = stay(app.t, 40, 2);
    const quote = (
      await post(app.t, 'quote', {
        hotelId,
        checkIn,
        checkOut,
        adults: 2,
        roomTypeId: 'double',
        ratePlanId: 'nonref',
      })
    ).json();
    const declined = await post(app.t, 'reservations', {
      quoteId: quote.id,
      guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' },
      payment: { token: 'tok_declined' },
    });
    assertProblem(declined, 402, 'payment_failed');
    assert.equal(await countEvents(hotelId), 0);

    const paid = await bookStay(app.t, hotelId, { fromToday: 40, nights: 2, ratePlanId: 'nonref' });
    const events = await eventsOf(app.t, paid.code);
    assert.deepEqual(
      events.map((e) => e.type),
      ['reservation.created', 'payment.succeeded'],
    );
    assert.deepEqual(events[1]?.data.payment.amount, paid.reservation.total);
    assert.equal(events[1]?.data.payment.kind, 'charge');
    assert.equal(events[1]?.data.reservation.payment.status, 'paid');
  });

  it('a modification writes reservation.modified; a change that changes nothing writes none', async () => {
    const booked = await bookStay(app.t, app.hotels[0].id);
    await modify(app.t, booked.code, booked.token, { specialRequests: 'quiet room' });
    await modify(app.t, booked.code, booked.token, { specialRequests: 'quiet room' });
    assert.deepEqual(
      (await eventsOf(app.t, booked.code)).map((e) => e.type),
      ['reservation.created', 'reservation.modified'],
    );
  });
});
