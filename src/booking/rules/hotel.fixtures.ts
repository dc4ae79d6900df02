import type { Hotel } from '../../catalog/catalog.schema.ts';

/**
 * The API.md example hotel's identity and times with nothing to sell: the rule tests add the room
 * types, rate plans, services, taxes and restrictions each needs.
 */
export function bareHotel(overrides: Partial<Hotel> = {}): Hotel {
  return {
    id: 'harbour-view',
    name: 'Harbour View',
    timezone: 'Europe/Lisbon',
    currency: 'EUR',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    maxDaysBeforeArrival: 500,
    roomTypes: [],
    ratePlans: [],
    services: [],
    taxes: [],
    restrictions: [],
    ...overrides,
  };
}
