/**
 * The calendar on a scaled-out deployment: a change answered by one process is seen by the next
 * search, quote and reservation on another process within 1 second (API.md 7.4).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';
import { http, needsPostgres, type ServiceProcess, sleep, startTwoServices } from './support.ts';

const BOOKING = '/api/v1/booking';

describe('the calendar across processes', () => {
  const hotel = makeHotel();
  let services: ServiceProcess[] = [];
  let operatorKey = '';
  let stop = async () => {};

  before(async () => {
    if (needsPostgres) return;
    ({ services, operatorKey, stop } = await startTwoServices([hotel], 'calendar test'));
  });
  after(() => stop());

  test('a change on one process is seen by the next search, quote and reservation on the other', {
    skip: needsPostgres,
  }, async () => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    const checkIn = daysFromNow(30);
    const checkOut = daysFromNow(31);
    const stay = { hotelId: hotel.id, checkIn, checkOut, adults: 2 };
    const suiteOffer = async () => {
      const r = await http(b.baseUrl, 'POST', `${BOOKING}/availability/search`, stay);
      return r.status === 200
        ? r.body.offers.find((o: { roomType: { id: string } }) => o.roomType.id === 'suite')
        : r;
    };
    assert.equal((await suiteOffer()).available, 2);

    const patched = await http(
      a.baseUrl,
      'PATCH',
      `/api/v1/operator/hotels/${hotel.id}/calendar`,
      { updates: [{ roomTypeIds: ['suite'], from: checkIn, to: checkIn, set: { rooms: 1, base: 45000 } }] },
      { authorization: `Bearer ${operatorKey}` },
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const answeredAt = Date.now();
    let offer = await suiteOffer();
    while (offer.available !== 1 && Date.now() - answeredAt < 1000) {
      await sleep(20);
      offer = await suiteOffer();
    }
    assert.equal(offer.available, 1, 'seen within 1 s');
    assert.equal(offer.nightly[0].amount.amount, 45000);

    const quote = async () =>
      http(b.baseUrl, 'POST', `${BOOKING}/quote`, { ...stay, roomTypeId: 'suite', ratePlanId: 'flex' });
    const first = await quote();
    const second = await quote();
    assert.equal(first.status, 201);
    assert.equal(first.body.total.amount > 45000, true);
    const guest = { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' };
    const booked = await http(a.baseUrl, 'POST', `${BOOKING}/reservations`, {
      quoteId: first.body.id,
      guest,
    });
    assert.equal(booked.status, 201, JSON.stringify(booked.body));
    const refused = await http(b.baseUrl, 'POST', `${BOOKING}/reservations`, {
      quoteId: second.body.id,
      guest,
    });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'no_availability');

    // Stop selling on A (suites are sold out): B's next search has nothing left to offer.
    const stop = await http(
      a.baseUrl,
      'PATCH',
      `/api/v1/operator/hotels/${hotel.id}/calendar`,
      { updates: [{ roomTypeIds: ['double'], from: checkIn, to: checkIn, set: { stopSell: true } }] },
      { authorization: `Bearer ${operatorKey}` },
    );
    assert.equal(stop.status, 200);
    const after = await http(b.baseUrl, 'POST', `${BOOKING}/availability/search`, stay);
    assert.equal(after.status, 422, JSON.stringify(after.body));
    assert.equal(after.body.code, 'restriction_window');
    assert.equal(after.body.errors[0].rule, 'stop_sell');
  });
});
