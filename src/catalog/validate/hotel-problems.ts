import type { CatalogFile, HotelDef } from '../catalog.schema.ts';
import { duplicateCodes, lockedOutPlans, promotionProblems } from './promotion-problems.ts';
import { ratePlanProblems } from './rate-plan-problems.ts';
import { duplicates } from './references.ts';
import { restrictionProblems } from './restriction-problems.ts';

/** Faults the schema cannot see: duplicate ids, dangling references, reversed periods, bad zones. */
export function crossReferenceProblems(file: CatalogFile, warnings: string[]): string[] {
  const problems = duplicates(
    file.hotels.map((h) => h.id),
    (i) => `hotels/${i}/id`,
    'hotel id',
  );
  file.hotels.forEach((hotel, h) => {
    problems.push(...hotelProblems(hotel, `hotels/${h}`, warnings));
  });
  return problems;
}

function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

function hotelProblems(hotel: HotelDef, at: string, warnings: string[]): string[] {
  const problems: string[] = [];
  if (!isTimeZone(hotel.timezone)) {
    problems.push(`${at}/timezone: unknown IANA time zone ${JSON.stringify(hotel.timezone)}`);
  }
  // One counter per series: a credit note numbered in the invoices' series would take their numbers.
  if (hotel.legal && (hotel.legal.invoiceSeries ?? 'F') === (hotel.legal.creditNoteSeries ?? 'R')) {
    problems.push(`${at}/legal/creditNoteSeries: must differ from invoiceSeries`);
  }
  const roomTypeIds = new Set(hotel.roomTypes.map((rt) => rt.id));
  const ratePlanIds = new Set(hotel.ratePlans.map((rp) => rp.id));
  problems.push(
    ...duplicates(
      hotel.roomTypes.map((rt) => rt.id),
      (i) => `${at}/roomTypes/${i}/id`,
      'room type id',
    ),
    // A room number belongs to one room of the hotel: listed twice, an arrival could be given it twice.
    ...duplicates(
      hotel.roomTypes.flatMap((rt) => rt.roomNumbers ?? []),
      (i) => `${at}/roomTypes/${roomNumberOwner(hotel, i)}`,
      'room number',
    ),
    ...duplicates(
      hotel.ratePlans.map((rp) => rp.id),
      (i) => `${at}/ratePlans/${i}/id`,
      'rate plan id',
    ),
    ...duplicates(
      (hotel.services ?? []).map((s) => s.id),
      (i) => `${at}/services/${i}/id`,
      'service id',
    ),
    ...duplicates(
      (hotel.taxes ?? []).map((t) => t.code),
      (i) => `${at}/taxes/${i}/code`,
      'tax code',
    ),
  );
  hotel.roomTypes.forEach((rt, t) => {
    const min = rt.minOccupancy ?? 1;
    const standard = rt.standardOccupancy ?? rt.maxAdults;
    if (min > standard)
      problems.push(
        `${at}/roomTypes/${t}/minOccupancy: must not be above the standard occupancy (${standard})`,
      );
    if (standard > rt.maxOccupancy)
      problems.push(
        `${at}/roomTypes/${t}/standardOccupancy: must not be above maxOccupancy (${rt.maxOccupancy})`,
      );
  });
  hotel.ratePlans.forEach((ratePlan, p) => {
    problems.push(...ratePlanProblems(ratePlan, roomTypeIds, `${at}/ratePlans/${p}`, warnings));
  });
  (hotel.restrictions ?? []).forEach((restriction, r) => {
    problems.push(...restrictionProblems(restriction, roomTypeIds, ratePlanIds, `${at}/restrictions/${r}`));
  });
  const promotions = hotel.promotions ?? [];
  for (const i of duplicateCodes(promotions.map((p) => p.code)))
    problems.push(
      `${at}/promotions/${i}/code: duplicate promotion code ${JSON.stringify(promotions[i]?.code)}`,
    );
  promotions.forEach((promotion, i) => {
    for (const p of promotionProblems(promotion, hotel))
      problems.push(`${at}/promotions/${i}${p.path}: ${p.message}`);
  });
  for (const id of lockedOutPlans(hotel, promotions)) {
    const p = hotel.ratePlans.findIndex((rp) => rp.id === id);
    problems.push(
      `${at}/ratePlans/${p}/hidden: no promotion code unlocks hidden rate plan ${JSON.stringify(id)} (add its id to a promotion's unlocksRatePlans)`,
    );
  }
  return problems;
}

/** `t/roomNumbers/n` of the `i`th room number of the hotel, counted across its room types. */
function roomNumberOwner(hotel: HotelDef, i: number): string {
  let left = i;
  for (const [t, rt] of hotel.roomTypes.entries()) {
    const numbers = rt.roomNumbers ?? [];
    if (left < numbers.length) return `${t}/roomNumbers/${left}`;
    left -= numbers.length;
  }
  return '';
}
