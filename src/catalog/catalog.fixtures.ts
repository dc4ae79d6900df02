/**
 * The tests' factories of hotels and rate plans, one module for the unit tests in src/ and the
 * HTTP tests in test/ (which name each hotel uniquely: test/helpers/test-app.ts `makeHotel`), and
 * catalogue documents for the catalogue's own tests, with how they are refused.
 */
import assert from 'node:assert/strict';
import type { Hotel, HotelDef, RatePlan, RoomTypeDef } from './catalog.schema.ts';
import { CatalogError, parseCatalog } from './catalog.validate.ts';

/** The room types the tests' hotels sell (the API.md example's double, and two larger ones). */
export const ROOM_TYPES = {
  double: { id: 'double', name: 'Double Room', count: 10, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
  suite: { id: 'suite', name: 'Suite', count: 2, maxAdults: 4, maxChildren: 2, maxOccupancy: 5 },
  family: { id: 'family', name: 'Family Room', count: 4, maxAdults: 4, maxChildren: 3, maxOccupancy: 6 },
} satisfies Record<string, RoomTypeDef>;

/** The API.md example's price of a double room a night. */
export const DOUBLE_PRICE = { base: 12000, includedAdults: 2, extraAdult: 3000, child: 1500 };

/** The API.md example's flexible plan (the double room only): free cancellation until 2 days before. */
export function ratePlan(overrides: Partial<RatePlan> = {}): RatePlan {
  return {
    id: 'flex',
    name: 'Flexible',
    refundable: true,
    prepayment: 'none',
    freeCancellationDays: 2,
    penaltyNights: 1,
    prices: { double: { ...DOUBLE_PRICE } },
    seasons: [],
    ...overrides,
  };
}

/** The non-refundable plan, paid in full when booked. */
export function nonrefPlan(overrides: Partial<RatePlan> = {}): RatePlan {
  return ratePlan({
    id: 'nonref',
    name: 'Non-refundable',
    refundable: false,
    prepayment: 'full',
    ...overrides,
  });
}

/** A refundable plan paid in full when booked: the prepaid stays tests change, cancel and refund. */
export function prepaidPlan(overrides: Partial<RatePlan> = {}): RatePlan {
  return ratePlan({
    id: 'prepaid',
    name: 'Pay now, flexible',
    prepayment: 'full',
    prices: { double: { ...DOUBLE_PRICE, base: 11000 } },
    ...overrides,
  });
}

/** The API.md example's services and taxes. */
export const BREAKFAST = {
  id: 'breakfast',
  name: 'Breakfast',
  pricing: 'per_guest_per_night',
  amount: 1500,
} as const;
export const PARKING = { id: 'parking', name: 'Parking', pricing: 'per_night', amount: 2000 } as const;
export const TAXES = [
  { code: 'city_tax', name: 'City tax', type: 'per_adult_per_night', amount: 200 },
  { code: 'vat', name: 'VAT', type: 'percent_included', rate: 10 },
] satisfies Hotel['taxes'];

/** The API.md example hotel's identity and times. */
const HARBOUR_VIEW = {
  id: 'harbour-view',
  name: 'Harbour View',
  timezone: 'Europe/Lisbon',
  currency: 'EUR',
  checkInTime: '15:00',
  checkOutTime: '11:00',
  maxDaysBeforeArrival: 500,
};

/**
 * The API.md example hotel with nothing to sell: the rule tests add the room types, rate plans,
 * services, taxes and restrictions each needs.
 */
export function bareHotel(overrides: Partial<Hotel> = {}): Hotel {
  return {
    ...HARBOUR_VIEW,
    roomTypes: [],
    ratePlans: [],
    services: [],
    taxes: [],
    restrictions: [],
    ...overrides,
  };
}

/**
 * The hotel the HTTP tests book in (test/helpers/test-app.ts `makeHotel` gives it a unique id):
 * a double room and a suite, the flexible plan for both, the non-refundable one (cheaper, the
 * double only, no cancellation terms: nothing is refunded), breakfast and parking, the taxes.
 */
export function testHotel(overrides: Partial<HotelDef> = {}): HotelDef {
  // A copy: a test may change its hotel's room types or prices without changing the next test's.
  const defaults: HotelDef = structuredClone({
    ...HARBOUR_VIEW,
    name: 'Test Hotel',
    roomTypes: [ROOM_TYPES.double, ROOM_TYPES.suite],
    ratePlans: [
      ratePlan({
        prices: {
          double: DOUBLE_PRICE,
          suite: { base: 30000, includedAdults: 2, extraAdult: 4000, child: 2000 },
        },
      }),
      {
        id: 'nonref',
        name: 'Non-refundable',
        refundable: false,
        prepayment: 'full',
        prices: { double: { ...DOUBLE_PRICE, base: 10800 } },
      },
    ],
    services: [BREAKFAST, PARKING],
    taxes: TAXES,
    restrictions: [],
  });
  return { ...defaults, ...overrides };
}

// biome-ignore lint/suspicious/noExplicitAny: tests edit the document freely, into shapes no type allows.
export type Json = any;

/** A minimal valid catalogue as plain JSON, fresh for every test. */
export function catalogue(): Json {
  return {
    hotels: [
      {
        id: 'harbour-view',
        name: 'Harbour View',
        timezone: 'Europe/Lisbon',
        currency: 'EUR',
        roomTypes: [
          { id: 'double', name: 'Double Room', count: 10, maxAdults: 2, maxChildren: 1, maxOccupancy: 3 },
          { id: 'suite', name: 'Suite', count: 2, maxAdults: 2, maxChildren: 2, maxOccupancy: 4 },
        ],
        ratePlans: [
          {
            id: 'flex',
            name: 'Flexible',
            refundable: true,
            prepayment: 'none',
            prices: { double: { base: 12000 }, suite: { base: 26000, child: 2500 } },
          },
        ],
      },
    ],
  };
}

/** The problems `parseCatalog` refuses `json` with, each of them also in the error's message. */
export function problemsOf(json: unknown): string[] {
  try {
    parseCatalog(json);
  } catch (error) {
    assert.ok(error instanceof CatalogError);
    for (const problem of error.problems) assert.ok(error.message.includes(problem), problem);
    return error.problems;
  }
  assert.fail('expected a CatalogError');
}
