import type { Hotel, RoomTypeDef } from '../../catalog/catalog.schema.ts';
import type { Occupancy, PlanPricing, SupplementDef } from '../../catalog/rate-plan.model.ts';
import { minorDigits } from '../../infra/currency.ts';
import { type PlanPrice, type PlanRefusal, pricePlanStay } from '../../rate-plans/price-plan-stay.ts';
import { splitParty } from './party.ts';

/** The room type's occupancy as an occupancy-priced plan reads it (docs/api.md §9.3 defaults). */
export function occupancyOf(roomType: RoomTypeDef): Occupancy {
  return {
    minOccupancy: roomType.minOccupancy ?? 1,
    standardOccupancy: roomType.standardOccupancy ?? roomType.maxAdults,
    maxOccupancy: roomType.maxOccupancy,
    maxChildren: roomType.maxChildren,
  };
}

export type PlannedRooms = { ok: true; rooms: PlanPrice[] } | PlanRefusal;

export type PlanStayInput = {
  checkIn: string;
  checkOut: string;
  adults: number;
  children: readonly number[];
  rooms: number;
  /** The hotel's date of the booking; advance-booking offsets count from it. */
  today: string;
  /** Service ids asked for: the plan's optional supplements among them are its extras (§9.3). */
  services?: readonly string[];
};

/**
 * Each room of the stay priced under an occupancy-priced plan: the party split as API.md 6 says
 * (children's ages given to the rooms in the order listed), each room priced on its own as
 * HotelData 4.5 prices one room. The first room refused refuses the stay.
 */
export function priceRoomsUnderPlan(
  hotel: Hotel,
  roomType: RoomTypeDef,
  plan: PlanPricing,
  input: PlanStayInput,
): PlannedRooms {
  const split = splitParty(input.adults, input.children.length, input.rooms);
  const occupancy = occupancyOf(roomType);
  const rooms: PlanPrice[] = [];
  let child = 0;
  for (const room of split) {
    const ages = input.children.slice(child, child + room.children);
    child += room.children;
    const price = pricePlanStay(
      plan,
      occupancy,
      {
        roomTypeId: roomType.id,
        checkIn: input.checkIn,
        checkOut: input.checkOut,
        adults: room.adults,
        children: ages,
        bookingDate: input.today,
      },
      minorDigits(hotel.currency),
    );
    if (!price.ok) return price;
    rooms.push(price);
  }
  for (const id of input.services ?? []) {
    const extra = optionalSupplement(plan, id);
    if (extra && !rooms.every((room) => room.extras.some((x) => x.id === id)))
      return {
        ok: false,
        reason: 'unavailable',
        message: `The extra "${textOf(extra.names, id)}" has no price for this stay.`,
      };
  }
  return { ok: true, rooms };
}

/** The plan's optional supplement of that code: an extra a guest may add as a service. */
export function optionalSupplement(plan: PlanPricing | undefined, id: string) {
  return plan?.supplements?.find((s) => s.id === id && !s.mandatory);
}

/**
 * Why a requested service id that is not one of the hotel's services is refused, or null when it
 * is an optional supplement of the chosen rate plan (of any plan when none is chosen yet: a search).
 */
export function planExtraProblem(hotel: Hotel, id: string, ratePlanId?: string): string | null {
  const plans = hotel.ratePlans.filter((p) => optionalSupplement(p.pricing, id));
  if (plans.length === 0) return `unknown service "${id}"`;
  if (ratePlanId !== undefined && hotel.ratePlans.some((p) => p.id === ratePlanId))
    if (!plans.some((p) => p.id === ratePlanId))
      return `service "${id}" is an extra of another rate plan, not offered with "${ratePlanId}"`;
  return null;
}

/** A text in English when the plan has it, else its first language; `fallback` without any. */
export function textOf(texts: Record<string, string> | undefined, fallback: string, language = 'en'): string {
  if (!texts) return fallback;
  return texts[language] ?? texts.en ?? Object.values(texts)[0] ?? fallback;
}

/**
 * The mandatory supplements and the extras asked for (`services`), one line each (rooms summed),
 * in the plan's order.
 */
export function planSupplementLines(
  plan: PlanPricing,
  rooms: readonly PlanPrice[],
  services: readonly string[] = [],
): Array<{ id: string; name: string; amount: number }> {
  return (plan.supplements ?? [])
    .filter((s) => s.mandatory || services.includes(s.id))
    .map((s) => ({
      id: s.id,
      name: textOf(s.names, s.id),
      amount: rooms.reduce(
        (sum, room) =>
          sum + ((s.mandatory ? room.supplements : room.extras).find((x) => x.id === s.id)?.amount ?? 0),
        0,
      ),
    }));
}

/** What the guest is shown of an occupancy-priced plan's price: its texts, meals and the offers applied. */
export type PlanDetails = {
  names?: Record<string, string>;
  descriptions?: Record<string, string>;
  meals?: PlanPricing['meals'];
  freeNights: string[];
  freeChildren: number;
  supplements: Array<{ code: string; names?: Record<string, string>; descriptions?: Record<string, string> }>;
  /** Optional supplements with a price for this stay, bookable as `services`, with their price (all rooms). */
  extras: Array<{
    code: string;
    names?: Record<string, string>;
    descriptions?: Record<string, string>;
    amount: { amount: number; currency: string };
  }>;
};

/** A supplement's code with its texts, when it has them. */
function supplementTexts(s: SupplementDef) {
  const entry: PlanDetails['supplements'][number] = { code: s.id };
  if (s.names) entry.names = s.names;
  if (s.descriptions) entry.descriptions = s.descriptions;
  return entry;
}

/**
 * One object literal with every key, an absent text or meal plan as `undefined` (which the
 * serialisers leave out), rather than keys added one by one: this runs once per offer of a search,
 * and adding the optional keys afterwards cost about 4 µs a call in the service (a profile of a
 * search under an AlpineBits plan: 6 % of its CPU; bench/NOTES.md, 2026-11-28 (7)), against
 * nanoseconds for the literal. Not with conditional spreads either: Node 20's spreads cost
 * microseconds (docs/architecture.md, "Object spreads on hot paths").
 */
export function planDetails(plan: PlanPricing, rooms: readonly PlanPrice[], currency: string): PlanDetails {
  const details: PlanDetails = {
    names: plan.names,
    descriptions: plan.descriptions,
    meals: plan.meals,
    freeNights: [],
    freeChildren: 0,
    supplements: [],
    extras: [],
  };
  const freeNights = new Set<string>();
  for (const room of rooms) {
    for (const night of room.freeNights) freeNights.add(night);
    details.freeChildren += room.freeChildren;
  }
  details.freeNights = [...freeNights].sort();
  for (const s of plan.supplements ?? []) {
    if (s.mandatory) {
      details.supplements.push(supplementTexts(s));
    } else if (rooms.every((room) => room.extras.some((x) => x.id === s.id))) {
      const amount = rooms.reduce(
        (sum, room) => sum + (room.extras.find((x) => x.id === s.id)?.amount ?? 0),
        0,
      );
      details.extras.push(Object.assign(supplementTexts(s), { amount: { amount, currency } }));
    }
  }
  return details;
}
