import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bareHotel } from '../../catalog/catalog.fixtures.ts';
import type { Hotel, RatePlan } from '../../catalog/catalog.schema.ts';
import { evaluateStay, type StayRequest } from './availability.ts';
import { priceStay } from './pricing.ts';

function ratePlan(id: string, prices: RatePlan['prices']): RatePlan {
  return {
    id,
    name: id,
    refundable: true,
    prepayment: 'none',
    freeCancellationDays: 0,
    penaltyNights: 1,
    prices,
    seasons: [],
  };
}

function hotel(overrides: Partial<Hotel> = {}): Hotel {
  return bareHotel({
    roomTypes: [
      { id: 'single', name: 'Single Room', count: 8, maxAdults: 1, maxChildren: 0, maxOccupancy: 1 },
      { id: 'double', name: 'Double Room', count: 10, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'family', name: 'Family Room', count: 4, maxAdults: 3, maxChildren: 3, maxOccupancy: 5 },
      { id: 'suite', name: 'Suite', count: 2, maxAdults: 2, maxChildren: 2, maxOccupancy: 4 },
      { id: 'loft', name: 'Loft', count: 1, maxAdults: 2, maxChildren: 0, maxOccupancy: 2 },
    ],
    ratePlans: [
      ratePlan('flex', {
        single: { base: 8000 },
        double: { base: 12000 },
        family: { base: 17000 },
        suite: { base: 26000 },
      }),
      ratePlan('nonref', { double: { base: 10800 }, family: { base: 15000 }, suite: { base: 23000 } }),
      ratePlan('bb', { suite: { base: 29000 } }),
    ],
    services: [{ id: 'breakfast', name: 'Breakfast', pricing: 'per_guest_per_night', amount: 1500 }],
    ...overrides,
  });
}

function request(overrides: Partial<StayRequest> = {}): StayRequest {
  return {
    checkIn: '2027-03-01',
    checkOut: '2027-03-04',
    adults: 2,
    children: [],
    rooms: 1,
    services: [],
    today: '2026-11-22',
    ...overrides,
  };
}

const plenty = () => 5;
const pairs = (offers: ReturnType<typeof evaluateStay>['offers']) =>
  offers.map((o) => `${o.roomType.id}/${o.ratePlan.id}`);
const reasons = (result: ReturnType<typeof evaluateStay>) =>
  result.unavailable.map((u) => [u.roomType.id, u.reason, u.restriction?.rule]);

describe('evaluateStay', () => {
  it('offers every selling pair the party fits, in catalogue order, omitting unsold room types', () => {
    const result = evaluateStay(hotel(), request(), plenty);
    assert.deepEqual(pairs(result.offers), [
      'double/flex',
      'double/nonref',
      'family/flex',
      'family/nonref',
      'suite/flex',
      'suite/nonref',
      'suite/bb',
    ]);
    // The loft is sold by no plan, so it is neither offered nor reported.
    assert.deepEqual(reasons(result), [['single', 'occupancy', undefined]]);
  });

  it('prices each offer exactly as a quote would and reports rooms left', () => {
    const h = hotel();
    const req = request({ children: [7], services: ['breakfast'] });
    const result = evaluateStay(h, req, (id) => (id === 'double' ? 4 : 1));
    const offer = result.offers.find((o) => o.roomType.id === 'double' && o.ratePlan.id === 'nonref');
    assert.equal(offer?.available, 4);
    assert.deepEqual(offer?.price, priceStay(h, { ...req, roomTypeId: 'double', ratePlanId: 'nonref' }));
  });

  it('reports occupancy with a message when the party does not fit', () => {
    const result = evaluateStay(hotel(), request({ adults: 3, children: [4] }), plenty);
    assert.deepEqual(pairs(result.offers), ['family/flex', 'family/nonref']);
    assert.deepEqual(reasons(result), [
      ['single', 'occupancy', undefined],
      ['double', 'occupancy', undefined],
      ['suite', 'occupancy', undefined],
    ]);
    assert.equal(
      result.unavailable[1]?.message,
      'A party of 3 adults and 1 child does not fit in 1 Double Room (at most 2 adults, 1 child and 3 guests per room).',
    );
  });

  it('reports occupancy when a room would have no adult', () => {
    const result = evaluateStay(hotel(), request({ adults: 1, children: [3, 5], rooms: 2 }), plenty);
    assert.deepEqual(pairs(result.offers), []);
    assert.equal(result.unavailable.find((u) => u.roomType.id === 'family')?.reason, 'occupancy');
    assert.equal(
      result.unavailable.find((u) => u.roomType.id === 'family')?.message,
      'Every room needs an adult: 1 adult and 2 children cannot fill 2 Family Rooms.',
    );
  });

  it('reports sold_out when fewer rooms are left than requested', () => {
    const left: Record<string, number> = { double: 1, family: 0, suite: 2 };
    const result = evaluateStay(hotel(), request({ adults: 2, rooms: 2 }), (id) => left[id] ?? 0);
    assert.deepEqual(pairs(result.offers), ['suite/flex', 'suite/nonref', 'suite/bb']);
    // Two adults fit two single rooms, but none is left.
    assert.deepEqual(reasons(result), [
      ['single', 'sold_out', undefined],
      ['double', 'sold_out', undefined],
      ['family', 'sold_out', undefined],
    ]);
    assert.equal(result.unavailable[1]?.message, 'Only 1 Double Room is left for these dates.');
    assert.equal(result.unavailable[2]?.message, 'No Family Room is left for these dates.');
  });

  it('drops only the pairs a restriction applies to', () => {
    const h = hotel({
      restrictions: [{ from: '2027-03-02', to: '2027-03-02', stopSell: true, ratePlans: ['nonref'] }],
    });
    const result = evaluateStay(h, request(), plenty);
    assert.deepEqual(pairs(result.offers), ['double/flex', 'family/flex', 'suite/flex', 'suite/bb']);
    assert.deepEqual(reasons(result), [['single', 'occupancy', undefined]]);
  });

  it("reports restricted with the first rate plan's violation in catalogue order", () => {
    const h = hotel({
      restrictions: [
        { from: '2027-03-01', to: '2027-03-01', minStay: 5, ratePlans: ['bb'] },
        { from: '2027-03-01', to: '2027-03-01', closedToArrival: true, ratePlans: ['flex', 'nonref'] },
      ],
    });
    const result = evaluateStay(h, request(), plenty);
    assert.deepEqual(pairs(result.offers), []);
    assert.deepEqual(reasons(result), [
      ['single', 'occupancy', undefined],
      ['double', 'restricted', 'closed_to_arrival'],
      ['family', 'restricted', 'closed_to_arrival'],
      ['suite', 'restricted', 'closed_to_arrival'],
    ]);
    assert.equal(result.unavailable[1]?.message, 'Arrival is not possible on 2027-03-01.');

    const onlyBb = evaluateStay(h, request(), plenty, { roomTypeId: 'suite', ratePlanId: 'bb' });
    assert.deepEqual(reasons(onlyBb), [['suite', 'restricted', 'min_stay']]);
  });

  it('gives occupancy before restricted before sold_out', () => {
    const h = hotel({ restrictions: [{ from: '2027-03-01', to: '2027-03-03', stopSell: true }] });
    const none = () => 0;
    assert.deepEqual(reasons(evaluateStay(h, request({ adults: 3 }), none)).slice(0, 2), [
      ['single', 'occupancy', undefined],
      ['double', 'occupancy', undefined],
    ]);
    assert.deepEqual(reasons(evaluateStay(h, request(), none))[1], ['double', 'restricted', 'stop_sell']);
    assert.deepEqual(reasons(evaluateStay(hotel(), request(), none))[1], ['double', 'sold_out', undefined]);
  });

  it('reports restricted even when the unrestricted plans are sold out', () => {
    const h = hotel({
      restrictions: [{ from: '2027-03-01', to: '2027-03-01', minStay: 7, ratePlans: ['nonref'] }],
    });
    const result = evaluateStay(h, request(), (id) => (id === 'double' ? 0 : 5));
    assert.deepEqual(reasons(result)[1], ['double', 'restricted', 'min_stay']);
  });

  it('reports the booking window as a restriction', () => {
    const result = evaluateStay(hotel(), request({ checkIn: '2028-06-01', checkOut: '2028-06-02' }), plenty);
    assert.deepEqual(pairs(result.offers), []);
    assert.equal(result.unavailable[1]?.restriction?.rule, 'booking_window');
  });

  it('evaluates only the requested pair for a quote', () => {
    const only = { roomTypeId: 'suite', ratePlanId: 'nonref' };
    const result = evaluateStay(hotel(), request(), plenty, only);
    assert.deepEqual(pairs(result.offers), ['suite/nonref']);
    assert.deepEqual(result.unavailable, []);

    const tooMany = evaluateStay(hotel(), request({ adults: 5 }), plenty, only);
    assert.deepEqual(reasons(tooMany), [['suite', 'occupancy', undefined]]);

    const unsold = evaluateStay(hotel(), request(), plenty, { roomTypeId: 'single', ratePlanId: 'nonref' });
    assert.deepEqual(unsold, { offers: [], unavailable: [] });
  });

  it('asks for rooms left only for room types the party fits', () => {
    const asked: string[] = [];
    evaluateStay(hotel(), request({ adults: 3 }), (id) => {
      asked.push(id);
      return 5;
    });
    assert.deepEqual(asked, ['family']);
  });
});
