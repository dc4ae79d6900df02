import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const HOTEL_ID = 'bench-hotel';

/** A hotel with `types` room types, plenty of rooms (never sold out) and two rate plans. */
export function benchHotel(types: number) {
  const roomTypes = Array.from({ length: types }, (_, i) => ({
    id: `rt${i}`,
    name: `Room type ${i}`,
    count: 100_000,
    maxAdults: 2,
    maxChildren: 2,
    maxOccupancy: 4,
  }));
  const prices = Object.fromEntries(
    roomTypes.map((r, i) => [
      r.id,
      { base: 10_000 + i * 500, includedAdults: 2, extraAdult: 3000, child: 1500 },
    ]),
  );
  return {
    id: HOTEL_ID,
    name: 'Bench Hotel',
    timezone: 'Europe/Lisbon',
    currency: 'EUR',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    maxDaysBeforeArrival: 500,
    roomTypes,
    ratePlans: [
      {
        id: 'flex',
        name: 'Flexible',
        refundable: true,
        prepayment: 'none',
        freeCancellationDays: 2,
        penaltyNights: 1,
        prices,
      },
      { id: 'nonref', name: 'Non-refundable', refundable: false, prepayment: 'full', prices },
    ],
    services: [
      { id: 'breakfast', name: 'Breakfast', pricing: 'per_guest_per_night', amount: 1500 },
      { id: 'parking', name: 'Parking', pricing: 'per_night', amount: 2000 },
    ],
    taxes: [
      { code: 'city_tax', name: 'City tax', type: 'per_adult_per_night', amount: 200 },
      { code: 'vat', name: 'VAT', type: 'percent_included', rate: 10 },
    ],
    restrictions: [],
  };
}

export async function writeCatalog(dir: string, types: number): Promise<string> {
  const file = join(dir, `catalog-${types}.json`);
  await writeFile(file, JSON.stringify({ hotels: [benchHotel(types)] }));
  return file;
}

export function dayFromNow(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Varied stays (dates 2–300 days ahead, 1–4 nights, 1–2 adults) so caches do not flatter. */
export function stays(n: number, types: number) {
  return Array.from({ length: n }, (_, i) => {
    const start = 2 + ((i * 37) % 300);
    return {
      hotelId: HOTEL_ID,
      checkIn: dayFromNow(start),
      checkOut: dayFromNow(start + 1 + (i % 4)),
      adults: 1 + (i % 2),
      roomTypeId: `rt${(i * 7) % types}`,
      ratePlanId: 'flex',
    };
  });
}

const SERVICE_SETS = [[], ['breakfast'], ['parking'], ['breakfast', 'parking']];
const CHILDREN = [[], [7], [4, 11]];

/**
 * The i-th price calendar request (API.md 9.1): 60 nights from a different first night (2–481 days
 * ahead) and a party as search's, what a date picker asks for two months at a time.
 */
export function calendarPath(i: number): string {
  const { checkIn, adults, children, rooms } = searchStay(i);
  const kids = children.length > 0 ? `&children=${children.join(',')}` : '';
  const to = dayFromNow(Math.round((Date.parse(checkIn) - Date.parse(dayFromNow(0))) / 86_400_000) + 60);
  return `/api/v1/booking/hotels/${HOTEL_ID}/calendar?from=${checkIn}&to=${to}&adults=${adults}&rooms=${rooms}${kids}`;
}

/**
 * The i-th search body: a different stay on every request (arrival 2–481 days ahead, 1–7 nights,
 * 1–3 adults, 0–2 children, 1–2 rooms as the party needs, any set of services), taken in a mixed radix so the first
 * 241,920 requests of a run are all different: no response cache could stand in for the search.
 */
export function searchStay(i: number) {
  let n = i;
  const pick = (k: number) => {
    const v = n % k;
    n = Math.floor(n / k);
    return v;
  };
  // Arrival first: consecutive requests hit different nights.
  const start = 2 + ((pick(480) * 149) % 480);
  const nights = 1 + pick(7);
  const adults = 1 + pick(3);
  const children = CHILDREN[pick(3)] as number[];
  // Every party fits: at most 2 adults and 4 guests a room.
  const rooms = adults === 3 ? 2 : adults === 2 ? 1 + pick(2) : 1;
  const services = SERVICE_SETS[pick(4)] as string[];
  return {
    hotelId: HOTEL_ID,
    checkIn: dayFromNow(start),
    checkOut: dayFromNow(start + nights),
    adults,
    children,
    rooms,
    services,
  };
}
