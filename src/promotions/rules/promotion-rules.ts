import type { Promotion, PromotionDiscount } from '../../catalog/promotion.schema.ts';
import { addDays } from '../../dates/dates.ts';

/** Why a code does not apply (API.md 14.1, `errors[0].reason` of `promo_code_invalid`). */
export type PromotionRefusal = 'unknown' | 'not_yet_valid' | 'expired' | 'not_applicable' | 'used_up';

/** The stay a code is checked against: hotel-local dates. */
export type PromotionStay = { today: string; checkIn: string; checkOut: string; nights: number };

/**
 * Validity rule (API.md 14.1): booked within `bookFrom`..`bookTo` (hotel-local, inclusive: before
 * it `not_yet_valid`, after it `expired`); every night of the stay within `stayFrom`..`stayTo` and
 * at least `minNights` nights, else `not_applicable`. `null` when the code holds for the stay.
 */
export function promotionRefusal(promotion: Promotion, stay: PromotionStay): PromotionRefusal | null {
  return bookingRefusal(promotion, stay.today) ?? stayRefusal(promotion, stay);
}

/** The booking-date part of the validity rule: `not_yet_valid` before `bookFrom`, `expired` after `bookTo`. */
export function bookingRefusal(promotion: Promotion, today: string): PromotionRefusal | null {
  if (promotion.bookFrom !== undefined && today < promotion.bookFrom) return 'not_yet_valid';
  if (promotion.bookTo !== undefined && today > promotion.bookTo) return 'expired';
  return null;
}

/** The stay part of the validity rule: every night within `stayFrom`..`stayTo`, at least `minNights`. */
export function stayRefusal(
  promotion: Promotion,
  stay: Omit<PromotionStay, 'today'>,
): PromotionRefusal | null {
  if (promotion.stayFrom !== undefined && stay.checkIn < promotion.stayFrom) return 'not_applicable';
  // The last night is the day before check-out.
  if (promotion.stayTo !== undefined && stay.checkOut > addDays(promotion.stayTo, 1)) return 'not_applicable';
  if (promotion.minNights !== undefined && stay.nights < promotion.minNights) return 'not_applicable';
  return null;
}

/** Whether a hidden rate plan is offered with this code. */
export function unlocksPlan(promotion: Promotion | null, ratePlanId: string): boolean {
  return promotion?.unlocksRatePlans?.includes(ratePlanId) ?? false;
}

/**
 * Scope rule (API.md 14.1): a code's discount applies to its `ratePlans` (default all) and
 * `roomTypes` (default all); a plan the code unlocks is always its own.
 */
export function discountApplies(promotion: Promotion, roomTypeId: string, ratePlanId: string): boolean {
  if (!promotion.discount) return false;
  if (promotion.roomTypes && !promotion.roomTypes.includes(roomTypeId)) return false;
  if (unlocksPlan(promotion, ratePlanId)) return true;
  return !promotion.ratePlans || promotion.ratePlans.includes(ratePlanId);
}

/** Whether the code has anything for this (room type, rate plan): a discount, or the plan it unlocks. */
export function promotionFits(promotion: Promotion, roomTypeId: string, ratePlanId: string): boolean {
  if (promotion.roomTypes && !promotion.roomTypes.includes(roomTypeId)) return false;
  return unlocksPlan(promotion, ratePlanId) || discountApplies(promotion, roomTypeId, ratePlanId);
}

/**
 * Discount rule (API.md 14.1): `percent` of the room lines, rounded half up to the minor unit, or
 * `amountPerNight` per room and night; never more than the room lines. A positive amount to take off.
 */
export function discountAmount(
  discount: PromotionDiscount,
  roomsTotal: number,
  rooms: number,
  nights: number,
): number {
  const off =
    'percent' in discount
      ? Math.floor((roomsTotal * discount.percent + 50) / 100)
      : discount.amountPerNight * rooms * nights;
  return Math.max(0, Math.min(off, roomsTotal));
}
