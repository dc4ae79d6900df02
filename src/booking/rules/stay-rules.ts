import type { Hotel, RatePlan, RoomTypeDef } from '../../catalog/catalog.schema.ts';
import type { HotelNights } from '../../hotel-calendar/hotel-nights.ts';
import type { PlanPrice, PlanRefusal } from '../../rate-plans/price-plan-stay.ts';
import { type PlanStayInput, priceRoomsUnderPlan } from './plan-pricing.ts';
import { findRestriction, type RestrictionViolation } from './restrictions.ts';

/** What the rules say of a stay under one rate plan: at most one of the two is set. */
export interface StayRulesVerdict {
  /**
   * The rule that closes the stay: the hotel's restrictions on the nights (catalogue and calendar,
   * `restrictions.ts`) first, then an occupancy-priced plan's own booking and offer rules.
   */
  violation: RestrictionViolation | null;
  /** The plan refuses the stay for another reason (the party, no rate or extra for it): no offer. */
  refused: PlanRefusal | null;
  /**
   * An occupancy-priced plan's price of each room when it accepted the stay (null otherwise), for
   * `priceStay` to take rather than price the rooms a second time (issue 36: twice per offer was
   * most of what an AlpineBits plan added to a search).
   */
  planned: PlanPrice[] | null;
}

/**
 * The one check of a stay's rules under a rate plan, asked by search and quote (availability.ts)
 * and again by a booking under the calendar lock: the hotel's restrictions and the plan's rules
 * (HotelData 4.5, `rate-plans/plan-rules.ts` through the plan's pricing), in that order, so both
 * answer the same violation for the same stay.
 */
export function checkStayRules(
  hotel: Hotel,
  nights: HotelNights,
  roomType: RoomTypeDef,
  ratePlan: RatePlan,
  stay: PlanStayInput,
): StayRulesVerdict {
  const query = {
    roomTypeId: roomType.id,
    ratePlanId: ratePlan.id,
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    today: stay.today,
  };
  const violation = findRestriction(hotel, query, nights);
  if (violation) return { violation, refused: null, planned: null };
  const planned = ratePlan.pricing ? priceRoomsUnderPlan(hotel, roomType, ratePlan.pricing, stay) : null;
  if (!planned) return { violation: null, refused: null, planned: null };
  if (planned.ok) return { violation: null, refused: null, planned: planned.rooms };
  if (planned.restriction) return { violation: { ...planned.restriction }, refused: null, planned: null };
  return { violation: null, refused: planned, planned: null };
}
