import assert from 'node:assert/strict';
import type { Hotel, RatePlan } from '../../catalog/catalog.schema.ts';
import { bareHotel } from './hotel.fixtures.ts';
import type { PriceLine, StayPrice, StayToPrice } from './pricing.ts';

/** The hotel, rate plans and stays the pricing unit tests start from, and their checks. */
export function ratePlan(overrides: Partial<RatePlan> = {}): RatePlan {
  return {
    id: 'flex',
    name: 'Flexible',
    refundable: true,
    prepayment: 'none',
    freeCancellationDays: 2,
    penaltyNights: 1,
    prices: { double: { base: 12000, includedAdults: 2, extraAdult: 3000, child: 1500 } },
    seasons: [],
    ...overrides,
  };
}

/** The API.md section 6 example hotel, trimmed to what each test needs. */
export function hotel(overrides: Partial<Hotel> = {}): Hotel {
  return bareHotel({
    roomTypes: [
      { id: 'double', name: 'Double Room', count: 10, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
      { id: 'family', name: 'Family Room', count: 4, maxAdults: 4, maxChildren: 3, maxOccupancy: 6 },
    ],
    ratePlans: [
      ratePlan(),
      ratePlan({ id: 'nonref', name: 'Non-refundable', refundable: false, prepayment: 'full' }),
    ],
    services: [
      { id: 'breakfast', name: 'Breakfast', pricing: 'per_guest_per_night', amount: 1500 },
      { id: 'parking', name: 'Parking', pricing: 'per_night', amount: 2000 },
      { id: 'cot', name: 'Baby cot', pricing: 'per_room_per_night', amount: 500 },
      { id: 'late-checkout', name: 'Late check-out', pricing: 'per_stay', amount: 3000 },
    ],
    taxes: [
      { code: 'city_tax', name: 'City tax', type: 'per_adult_per_night', amount: 200 },
      { code: 'vat', name: 'VAT', type: 'percent_included', rate: 10 },
    ],
    ...overrides,
  });
}

export function stay(overrides: Partial<StayToPrice> = {}): StayToPrice {
  return {
    roomTypeId: 'double',
    ratePlanId: 'flex',
    checkIn: '2027-03-01',
    checkOut: '2027-03-04',
    adults: 2,
    children: [],
    rooms: 1,
    services: [],
    ...overrides,
  };
}

export const eur = (amount: number) => ({ amount, currency: 'EUR' });
export const roomLines = (price: StayPrice) => price.lines.filter((l) => l.type === 'room');
export const brief = (lines: PriceLine[]) =>
  lines.map((l) => [l.date ?? l.code, l.quantity, l.unitAmount.amount]);

export function assertConsistent(price: StayPrice): void {
  for (const line of price.lines) assert.equal(line.amount.amount, line.unitAmount.amount * line.quantity);
  const sum = price.lines.reduce((total, l) => total + l.amount.amount, 0);
  assert.equal(price.total.amount, sum);
  assert.equal(
    price.total.amount,
    price.roomsTotal.amount + price.servicesTotal.amount + price.addedTaxesTotal.amount,
  );
  const nightlySum = price.nightly.reduce((total, n) => total + n.amount.amount, 0);
  assert.equal(nightlySum, price.roomsTotal.amount);
}
