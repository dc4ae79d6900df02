import type { RatePlan, RestrictionDef, RoomPrice, RoomTypeDef } from '../catalog/catalog.schema.ts';
import type { PlanPricing } from '../catalog/rate-plan.model.ts';
import { rateCoversNight } from '../rate-plans/plan-rules.ts';

/*
 * What the catalogue alone says of one night: a room type's price fields under a rate plan and the
 * restrictions in force, before the operator calendar's overrides, which hotel-nights.ts puts on
 * top (API.md 7.4).
 */

/** A room's price fields in force on one night, defaults applied. */
export type NightPrice = { base: number; includedAdults: number; extraAdult: number; child: number };

/** Where a restriction in force came from: a catalogue restriction's period or the overridden night. */
export type RuleSource = {
  from: string;
  to: string;
  /** Catalogue order of the restriction (−1 for an override), so the first one listed decides. */
  order: number;
};

export type StayLimit = RuleSource & { nights: number };

/** The restrictions in force on one night; `null` = none. Stay limits apply to arrivals that night. */
export type NightRestrictions = {
  stopSell: RuleSource | null;
  closedToArrival: RuleSource | null;
  closedToDeparture: RuleSource | null;
  minStay: StayLimit | null;
  maxStay: StayLimit | null;
};

/**
 * The price fields an occupancy-priced plan shows in the calendar (API.md 7.4, 11.3): the rate for
 * the standard occupancy that night (per person times the guests, or per room), that occupancy
 * included, its additional-adult amount; children are priced by age, so `child` is 0. `null` on a
 * night no rate covers.
 */
export function standardOccupancyPrice(
  plan: PlanPricing,
  roomType: RoomTypeDef,
  night: string,
): NightPrice | null {
  const standard = roomType.standardOccupancy ?? roomType.maxAdults;
  const rate = plan.rates.find((r) => r.roomTypeId === roomType.id && rateCoversNight(r, night));
  const entry = rate?.byGuests.find((b) => b.guests === standard);
  if (!rate || !entry) return null;
  return {
    base: plan.per === 'person' ? entry.amount * standard : entry.amount,
    includedAdults: standard,
    extraAdult: rate.extraAdult ?? 0,
    child: 0,
  };
}

/**
 * The catalogue's price fields for one night. Seasons are applied in catalogue order, each
 * replacing only the fields it names, so when several seasons cover the same night the LAST one
 * listed wins for every field it names: a hotel lists a short special period after the broad season.
 */
export function cataloguePrice(plan: RatePlan, roomType: RoomTypeDef, night: string): RoomPrice {
  const price: RoomPrice = { ...(plan.prices[roomType.id] as RoomPrice) };
  for (const season of plan.seasons) {
    const override = season.prices[roomType.id];
    if (!override || night < season.from || night > season.to) continue;
    for (const [field, value] of Object.entries(override)) {
      if (value !== undefined) price[field as keyof RoomPrice] = value;
    }
  }
  return price;
}

function appliesTo(r: RestrictionDef, roomTypeId: string, ratePlanId: string | null): boolean {
  const plans = ratePlanId === null ? !r.ratePlans : !r.ratePlans || r.ratePlans.includes(ratePlanId);
  return plans && (!r.roomTypes || r.roomTypes.includes(roomTypeId));
}

/** The catalogue's restrictions on one night: the first listed decides, the strictest stay limit wins. */
export function catalogueRestrictions(
  restrictions: RestrictionDef[],
  roomTypeId: string,
  ratePlanId: string | null,
  night: string,
): NightRestrictions {
  const result: NightRestrictions = {
    stopSell: null,
    closedToArrival: null,
    closedToDeparture: null,
    minStay: null,
    maxStay: null,
  };
  restrictions.forEach((r, order) => {
    if (night < r.from || night > r.to || !appliesTo(r, roomTypeId, ratePlanId)) return;
    const source = { from: r.from, to: r.to, order };
    if (r.stopSell) result.stopSell ??= source;
    if (r.closedToArrival) result.closedToArrival ??= source;
    if (r.closedToDeparture) result.closedToDeparture ??= source;
    if (r.minStay !== undefined && (!result.minStay || r.minStay > result.minStay.nights))
      result.minStay = { ...source, nights: r.minStay };
    if (r.maxStay !== undefined && (!result.maxStay || r.maxStay < result.maxStay.nights))
      result.maxStay = { ...source, nights: r.maxStay };
  });
  return result;
}
