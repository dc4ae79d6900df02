import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

// GET /booking/hotels/{hotel}: the public description a booking page starts from.

describe('GET /api/v1/booking/hotels/{hotel}', () => {
  const hotel = makeHotel({ name: 'Harbour View', currency: 'GBP' });
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ hotels: [hotel] });
  });
  after(() => t.close());

  it('lists room types and services with prices in the hotel currency, and nothing private', async () => {
    const res = await t.inject({ method: 'GET', url: `/api/v1/booking/hotels/${hotel.id}` });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.id, hotel.id);
    assert.equal(body.name, 'Harbour View');
    assert.equal(body.currency, 'GBP');
    assert.equal(body.timezone, 'Europe/Lisbon');
    assert.equal(body.checkInTime, '15:00');
    assert.equal(body.checkOutTime, '11:00');
    assert.deepEqual(body.roomTypes[0], {
      id: 'double',
      name: 'Double Room',
      maxAdults: 2,
      maxChildren: 1,
      maxOccupancy: 3,
    });
    assert.deepEqual(body.services[0], {
      id: 'breakfast',
      name: 'Breakfast',
      pricing: 'per_guest_per_night',
      amount: { amount: 1500, currency: 'GBP' },
    });
    // Room counts, rate plan prices, tax amounts and restrictions stay private: rate plans and
    // taxes are named (as offers and price lines name them by id), no more.
    assert.equal(JSON.stringify(body).includes('count'), false);
    for (const plan of body.ratePlans)
      assert.deepEqual(Object.keys(plan), ['id', 'name', 'refundable', 'prepayment']);
    for (const tax of body.taxes) assert.deepEqual(Object.keys(tax), ['code', 'name', 'type']);
    assert.equal(body.restrictions, undefined);
  });

  it('answers 404 not_found for an unknown hotel', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/v1/booking/hotels/no-such-hotel' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(res.json().code, 'not_found');
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const op = doc.paths['/api/v1/booking/hotels/{hotel}']?.get;
    assert.equal(op?.operationId, 'getHotel');
    assert.ok(op.responses['200']);
    assert.ok(op.responses['404']);
  });
});
