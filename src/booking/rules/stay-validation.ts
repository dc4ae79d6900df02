import type { Hotel } from '../../catalog/catalog.schema.ts';
import { nightsBetween } from '../../dates/dates.ts';
import {
  type AppError,
  invalid,
  type ProblemDetailEntry,
  validationProblem,
} from '../../infra/http/problems.ts';
import { sellsRoomType } from '../../rate-plans/priced-hotel.ts';
import { planExtraProblem } from './plan-pricing.ts';
import type { Stay } from './stay.ts';

export const MAX_NIGHTS = 365;

export type StayInput = Stay & { roomTypeId?: string; ratePlanId?: string };

/**
 * The validation rules the schema cannot express (API.md `validation_error`): they need the
 * catalogue or the hotel's calendar. All problems are reported at once, with body paths.
 */
export function validateStay(
  hotel: Hotel,
  stay: StayInput,
  today: string,
  options: { checkInMayBePast?: boolean } = {},
): void {
  const errors: ProblemDetailEntry[] = [];
  if (stay.checkOut <= stay.checkIn) {
    errors.push({ path: '/checkOut', message: 'must be after checkIn' });
  } else if (nightsBetween(stay.checkIn, stay.checkOut) > MAX_NIGHTS) {
    errors.push({ path: '/checkOut', message: `a stay may have at most ${MAX_NIGHTS} nights` });
  }
  if (stay.checkIn < today && !options.checkInMayBePast) {
    errors.push({ path: '/checkIn', message: `must not be in the past (it is ${today} at the hotel)` });
  }
  if (stay.adults < stay.rooms) {
    errors.push({
      path: '/adults',
      message: 'must be at least the number of rooms: every room needs an adult',
    });
  }
  const known = new Set(hotel.services.map((s) => s.id));
  stay.services.forEach((id, i) => {
    const problem = known.has(id) ? null : planExtraProblem(hotel, id, stay.ratePlanId);
    if (problem) errors.push({ path: `/services/${i}`, message: problem });
  });
  if (stay.roomTypeId !== undefined && !hotel.roomTypes.some((r) => r.id === stay.roomTypeId)) {
    errors.push({ path: '/roomTypeId', message: `unknown room type "${stay.roomTypeId}"` });
  }
  if (stay.ratePlanId !== undefined) {
    const plan = hotel.ratePlans.find((p) => p.id === stay.ratePlanId);
    if (!plan) {
      errors.push({ path: '/ratePlanId', message: `unknown rate plan "${stay.ratePlanId}"` });
    } else if (
      stay.roomTypeId !== undefined &&
      !sellsRoomType(plan, stay.roomTypeId) &&
      hotel.roomTypes.some((r) => r.id === stay.roomTypeId)
    ) {
      errors.push({
        path: '/ratePlanId',
        message: `rate plan "${plan.id}" does not sell room type "${stay.roomTypeId}"`,
      });
    }
  }
  if (errors.length > 0) {
    throw validationProblem(errors);
  }
}

export function unknownHotel(hotelId: string): AppError {
  return invalid('/hotelId', `unknown hotel "${hotelId}"`);
}
