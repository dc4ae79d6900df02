import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadCatalogFile } from '../../catalog/catalog.validate.ts';
import { evaluateStay } from './availability.ts';

// The catalogue only loads the demo; what it prices is booking's rule, so it is tested here.
const demoPath = fileURLToPath(new URL('../../../catalog/demo.json', import.meta.url));

describe('the bundled demo catalogue, priced', () => {
  it('reproduces the API.md search example', async () => {
    const [hotel] = (await loadCatalogFile(demoPath)).hotels;
    assert.ok(hotel);
    const request = {
      checkIn: '2027-03-01',
      checkOut: '2027-03-04',
      adults: 2,
      children: [7],
      rooms: 1,
      services: ['breakfast'],
      today: '2026-11-22',
    };
    const only = { roomTypeId: 'double', ratePlanId: 'flex' };
    const [offer] = evaluateStay(hotel, request, () => 4, only).offers;
    assert.equal(offer?.price.total.amount, 55200);
    assert.deepEqual(
      offer?.price.includedTaxes.map((t) => [t.code, t.amount.amount]),
      [['vat', 4909]],
    );
    assert.equal(offer?.price.cancellationPolicy.freeCancellationUntil, '2027-02-27T00:00:00Z');
  });

  it('keeps its restrictions in 2027 and 2028 so near dates stay bookable', async () => {
    const [hotel] = (await loadCatalogFile(demoPath)).hotels;
    for (const r of hotel?.restrictions ?? []) assert.match(r.from, /^202[78]-/);
    const request = {
      checkIn: '2026-12-01',
      checkOut: '2026-12-03',
      adults: 2,
      children: [],
      rooms: 1,
      services: [],
      today: '2026-11-22',
    };
    assert.ok(hotel);
    const { offers, unavailable } = evaluateStay(
      hotel,
      request,
      (id) => hotel.roomTypes.find((rt) => rt.id === id)?.count ?? 0,
    );
    assert.deepEqual(
      unavailable.map((u) => u.roomType.id),
      ['single'],
    );
    assert.ok(offers.length >= 6);
  });
});
