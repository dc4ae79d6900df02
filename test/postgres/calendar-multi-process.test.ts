/**
 * The calendar on a scaled-out deployment: a change answered by one process is seen by the next
 * search, quote and reservation on another process within 1 second (API.md 7.4).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';
import {
  DATABASE_URL,
  http,
  inventoryKey,
  needsPostgres,
  newEncryptionKey,
  type ServiceProcess,
  sleep,
  sqlClient,
  startService,
  writeCatalog,
} from './support.ts';

const BOOKING = '/api/v1/booking';

describe('the calendar across processes', () => {
  const hotel = makeHotel();
  const encryptionKey = newEncryptionKey();
  const services: ServiceProcess[] = [];
  let sql: pg.Client;
  let operatorKey = '';

  before(async () => {
    if (needsPostgres) return;
    const env = {
      DATABASE_URL: DATABASE_URL as string,
      DATA_ENCRYPTION_KEY: encryptionKey,
      CATALOG_FILE: await writeCatalog([hotel]),
      OPERATOR_BOOTSTRAP: 'false',
      DB_POOL_SIZE: '3',
    };
    services.push(...(await Promise.all([startService(env), startService(env)])));
    sql = await sqlClient();
    operatorKey = await inventoryKey(sql, encryptionKey, 'calendar test');
  });
  after(async () => {
    if (needsPostgres) return;
    await sql?.end();
    const exits = await Promise.all(services.map((s) => s.stop()));
    for (const exit of exits) assert.deepEqual(exit, { code: 0, signal: null });
  });

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
