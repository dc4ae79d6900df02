import type { Occupancy, PlanPricing, RateDef } from '../catalog/rate-plan.model.ts';

/**
 * Who a plan charges for, and how much one rate charges them: the party checked against the room
 * and the offer, children promoted to full payers, the family offer (HotelData 4.5, as rtapp).
 */

/**
 * Adults who pay the full rate before children do (HotelData 2018-10 on, as rtapp): the standard
 * occupancy, less when the room's children's places would otherwise stay empty.
 */
export function fullPayersNeeded(o: Occupancy): number {
  return o.maxChildren === undefined
    ? o.standardOccupancy
    : Math.min(o.maxOccupancy - o.maxChildren, o.standardOccupancy);
}

/** The party's check against the room type's and the offer's occupancy: why it may not book, or null. */
export function occupancyRefusal(
  plan: PlanPricing,
  o: Occupancy,
  adults: number,
  children: readonly number[],
): string | null {
  const guests = adults + children.length;
  if (guests < o.minOccupancy) return `The room needs at least ${o.minOccupancy} guests.`;
  if (guests > o.maxOccupancy) return `The room takes at most ${o.maxOccupancy} guests.`;
  const r = plan.stayRules ?? {};
  const adultMinAge = r.adultMinAge === undefined ? 18 : r.adultMinAge;
  if (adultMinAge === null && children.length > 0) return 'This rate is for adults only.';
  for (const age of children) {
    if (adultMinAge !== null && age >= adultMinAge)
      return `This rate counts guests of ${adultMinAge} or older as adults.`;
    if (
      (r.childMinAge !== undefined && age < r.childMinAge) ||
      (r.childMaxAge !== undefined && age >= r.childMaxAge)
    )
      return `This rate does not take children aged ${age}.`;
  }
  if (r.minAdults !== undefined && adults < r.minAdults)
    return `This rate needs at least ${r.minAdults} adults.`;
  if (r.maxAdults !== undefined && adults > r.maxAdults)
    return `This rate takes at most ${r.maxAdults} adults.`;
  if (r.minChildren !== undefined && children.length < r.minChildren)
    return `This rate needs at least ${r.minChildren} children.`;
  if (r.maxChildren !== undefined && children.length > r.maxChildren)
    return `This rate takes at most ${r.maxChildren} children.`;
  return null;
}

export type Party = { adults: number; children: number[]; freeChildren: number };

/** Children become full payers, oldest first, until the room's full payers are there; then the family offer. */
export function effectiveParty(
  plan: PlanPricing,
  o: Occupancy,
  adults: number,
  ages: readonly number[],
): Party {
  const children = [...ages].sort((a, b) => a - b);
  let payers = adults;
  const needed = fullPayersNeeded(o);
  while (payers < needed && children.length > 0) {
    children.pop();
    payers++;
  }
  let freeChildren = 0;
  const family = plan.familyOffer;
  if (family) {
    const eligible = children.filter((age) => age < family.maxAge).length;
    if (eligible >= 1 && eligible >= family.minChildren) {
      while (freeChildren < eligible && freeChildren < family.freeChildren) {
        // the youngest eligible child stays free first (children are sorted by age)
        children.splice(
          children.findIndex((age) => age < family.maxAge),
          1,
        );
        freeChildren++;
      }
    }
  }
  return { adults: payers, children, freeChildren };
}

/** One rate's amount for the party for one full unit (UnitMultiplier nights), or why it cannot price it. */
export function rateAmount(plan: PlanPricing, rate: RateDef, o: Occupancy, party: Party): number | string {
  let cost = 0;
  const baseAdults = Math.min(party.adults, o.standardOccupancy);
  if (baseAdults > 0) {
    if (plan.per === 'person') {
      const guests = Math.min(party.adults + party.children.length + party.freeChildren, o.standardOccupancy);
      const entry = rate.byGuests.find((b) => b.guests === guests);
      if (!entry) return `no price for ${guests} guests`;
      cost += entry.amount * baseAdults;
    } else {
      const entry = rate.byGuests.find((b) => b.guests === baseAdults);
      if (!entry) return `no price for ${baseAdults} guests`;
      cost += entry.amount;
    }
  }
  const extraAdults = party.adults - baseAdults;
  if (extraAdults > 0) {
    if (rate.extraAdult === undefined) return 'no price for an additional adult';
    cost += extraAdults * rate.extraAdult;
  }
  for (const age of party.children) {
    const band = (rate.children ?? []).find(
      (b) => (b.minAge === undefined || age >= b.minAge) && (b.maxAge === undefined || age < b.maxAge),
    );
    if (!band) return `no price for a child aged ${age}`;
    cost += band.amount;
  }
  return cost;
}
