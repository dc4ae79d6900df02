import assert from 'node:assert/strict';
import {
  BREAKFAST,
  bareHotel,
  nonrefPlan,
  PARKING,
  ROOM_TYPES,
  ratePlan,
  TAXES,
} from '../../catalog/catalog.fixtures.ts';
import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { PriceLine } from '../../reservations/reservation.schemas.ts';
import type { StayPrice, StayToPrice } from './pricing.ts';

/** The stays the pricing unit tests price, and their checks (hotels and plans: catalog.fixtures.ts). */

/** The API.md section 6 example hotel, trimmed to what each test needs. */
export function hotel(overrides: Partial<Hotel> = {}): Hotel {
  // A copy: a test may change its hotel without changing the shared room types, services, taxes.
  const defaults: Partial<Hotel> = structuredClone({
    roomTypes: [ROOM_TYPES.double, ROOM_TYPES.family],
    ratePlans: [ratePlan(), nonrefPlan()],
    services: [
      BREAKFAST,
      PARKING,
      { id: 'cot', name: 'Baby cot', pricing: 'per_room_per_night' as const, amount: 500 },
      { id: 'late-checkout', name: 'Late check-out', pricing: 'per_stay' as const, amount: 3000 },
    ],
    taxes: TAXES,
  });
  return bareHotel({ ...defaults, ...overrides });
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
