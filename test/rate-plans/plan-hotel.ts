import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { makeHotel } from '../helpers/test-app.ts';

/**
 * The hotel the RatePlans tests price on: one room type `double` (standard occupancy 2) and a
 * catalogue plan `flex` at 120.00 a night, no taxes, so every total is the stored plan's alone.
 */
export function planHotel(
  occupancy: { maxAdults: number; maxChildren: number; maxOccupancy: number } = {
    maxAdults: 3,
    maxChildren: 2,
    maxOccupancy: 4,
  },
  extra: Partial<HotelDef> = {},
): HotelDef {
  return makeHotel({
    roomTypes: [{ id: 'double', name: 'Double Room', count: 4, ...occupancy, standardOccupancy: 2 }],
    ratePlans: [
      {
        id: 'flex',
        name: 'Flexible',
        refundable: true,
        prepayment: 'none',
        prices: { double: { base: 12000 } },
      },
    ],
    taxes: [],
    ...extra,
  });
}
