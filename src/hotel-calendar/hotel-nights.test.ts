import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Hotel } from '../catalog/catalog.schema.ts';
import { planCalendarPatch } from './calendar-update.ts';
import { emptyCalendarState, hotelNights, priceNightKey, roomNightKey } from './hotel-nights.ts';

const hotel: Hotel = {
  id: 'h',
  name: 'H',
  timezone: 'Europe/Lisbon',
  currency: 'EUR',
  checkInTime: '15:00',
  checkOutTime: '11:00',
  maxDaysBeforeArrival: null,
  roomTypes: [{ id: 'double', name: 'Double', count: 10, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 }],
  ratePlans: [
    {
      id: 'flex',
      name: 'Flex',
      refundable: true,
      prepayment: 'none',
      freeCancellationDays: 0,
      penaltyNights: 1,
      prices: { double: { base: 10000, extraAdult: 2000 } },
      seasons: [{ from: '2027-03-01', to: '2027-03-31', prices: { double: { base: 12000 } } }],
    },
  ],
  services: [],
  taxes: [],
  restrictions: [
    { from: '2027-03-01', to: '2027-03-10', stopSell: true, minStay: 2 },
    { from: '2027-03-05', to: '2027-03-05', ratePlans: ['flex'], closedToArrival: true },
  ],
};

const noRoomOverride = {
  rooms: null,
  stopSell: null,
  closedToArrival: null,
  closedToDeparture: null,
  minStay: null,
  maxStay: null,
};

describe('hotel nights: the catalogue merged with the calendar', () => {
  it('is the catalogue alone without overrides: seasons, restrictions, count', () => {
    const nights = hotelNights(hotel);
    assert.deepEqual(nights.priceOn('double', 'flex', '2027-03-02'), {
      base: 12000,
      includedAdults: 2,
      extraAdult: 2000,
      child: 0,
    });
    const r = nights.restrictionsOn('double', 'flex', '2027-03-05');
    assert.deepEqual(r.stopSell, { from: '2027-03-01', to: '2027-03-10', order: 0 });
    assert.deepEqual(r.closedToArrival, { from: '2027-03-05', to: '2027-03-05', order: 1 });
    // Rate-plan-specific restrictions are left out of the every-plan view.
    assert.equal(nights.restrictionsOn('double', null, '2027-03-05').closedToArrival, null);
    assert.equal(nights.leftOn('double', '2027-03-05'), 10);
  });

  it('lets overrides win for the nights they name, field by field', () => {
    const state = emptyCalendarState();
    state.rooms.set(roomNightKey('double', '2027-03-05'), {
      ...noRoomOverride,
      rooms: 4,
      stopSell: false,
      minStay: 3,
    });
    state.prices.set(priceNightKey('double', 'flex', '2027-03-05'), {
      base: null,
      includedAdults: 1,
      extraAdult: null,
      child: 700,
    });
    state.inventory.set(roomNightKey('double', '2027-03-05'), { total: 4, sold: 3, version: 1 });
    const nights = hotelNights(hotel, state);
    assert.deepEqual(nights.priceOn('double', 'flex', '2027-03-05'), {
      base: 12000,
      includedAdults: 1,
      extraAdult: 2000,
      child: 700,
    });
    const r = nights.restrictionsOn('double', 'flex', '2027-03-05');
    assert.equal(r.stopSell, null);
    assert.deepEqual(r.minStay, { from: '2027-03-05', to: '2027-03-05', order: -1, nights: 3 });
    assert.notEqual(r.closedToArrival, null, 'fields not overridden keep the catalogue');
    assert.deepEqual([nights.roomsOn('double', '2027-03-05'), nights.soldOn('double', '2027-03-05')], [4, 3]);
    assert.equal(nights.leastLeft('double', '2027-03-04', '2027-03-07'), 1);
    assert.notEqual(nights.restrictionsOn('double', 'flex', '2027-03-06').stopSell, null);
  });

  it('expands a PATCH by days of the week and the plans that sell each room type', () => {
    const [update] = planCalendarPatch(hotel, {
      updates: [{ from: '2027-03-01', to: '2027-03-14', daysOfWeek: ['sat', 'sun'], set: { base: 1 } }],
    });
    assert.deepEqual(update?.nights, ['2027-03-06', '2027-03-07', '2027-03-13', '2027-03-14']);
    assert.deepEqual(update?.plans, [{ roomTypeId: 'double', ratePlanId: 'flex' }]);
    assert.deepEqual(update?.room, {});
  });
});
