import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadCatalogFile } from '../../catalog/catalog.validate.ts';
import { expandYearlyPeriods, isYearly } from '../../catalog/recurrence.ts';
import { evaluateStay } from './availability.ts';

// The catalogue only loads the demo; what it prices is booking's rule, so it is tested here.
const demoPath = fileURLToPath(new URL('../../../catalog/demo.json', import.meta.url));

/** The demo hotel as the catalogue store hands it out on `today`: yearly periods dated. */
async function demoHotel(today: string) {
  const [hotel] = (await loadCatalogFile(demoPath)).hotels;
  assert.ok(hotel);
  return expandYearlyPeriods(hotel, today);
}

describe('the bundled demo catalogue, priced', () => {
  it('reproduces the API.md search example', async () => {
    const hotel = await demoHotel('2026-11-22');
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

  it('has only yearly seasons and restrictions, and near dates stay bookable', async () => {
    const [definition] = (await loadCatalogFile(demoPath)).hotels;
    for (const period of [
      ...(definition?.restrictions ?? []),
      ...(definition?.ratePlans ?? []).flatMap((p) => p.seasons),
    ]) {
      assert.ok(isYearly(period), JSON.stringify(period));
    }
    const hotel = await demoHotel('2026-11-22');
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
