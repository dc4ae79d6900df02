import type { Occupancy, PlanPricing, RateDef } from '../catalog/rate-plan.model.ts';
import { eachNight, nightsBetween } from '../dates/dates.ts';
import { type Exact, exactly } from './exact-arithmetic.ts';
import {
  bookingRuleViolation,
  type PlanRestriction,
  rateCoversNight,
  stayRuleViolation,
} from './plan-rules.ts';
import { rtappRound } from './rounding.ts';
import { splitSupplements, supplementApplies, supplementValue } from './supplement-value.ts';

/** One room's stay under a plan: the party in that room and the date the booking is made. */
export type PlanStay = {
  roomTypeId: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  /** Ages. */
  children: readonly number[];
  /** Hotel-local date of the booking (advance-booking offsets count from it). */
  bookingDate: string;
};

export type PlanPrice = {
  ok: true;
  /** What the room costs for the stay: rates + mandatory supplements, rounded as rtapp rounds. */
  total: number;
  /** The rates' part of `total`, per night (free nights at 0); sums to `roomsTotal`. */
  nights: Array<{ date: string; amount: number; free: boolean }>;
  roomsTotal: number;
  /** Mandatory supplements' part of `total`, each; sums to `total - roomsTotal`. */
  supplements: Array<{ id: string; amount: number }>;
  freeNights: string[];
  /** Children who stayed free under the family offer. */
  freeChildren: number;
  /**
   * Optional supplements with a price for this stay: what each costs the room if the guest adds
   * it (charged by the same rules as a mandatory one, rounded on its own); not in `total`.
   */
  extras: Array<{ id: string; amount: number }>;
};

/** `occupancy`: the party does not fit the room or the offer; `restricted`: a booking or offer rule; `unavailable`: no rate. */
export type PlanRefusal = {
  ok: false;
  reason: 'occupancy' | 'restricted' | 'unavailable';
  message: string;
  restriction?: PlanRestriction;
};

const refuse = (
  reason: PlanRefusal['reason'],
  message: string,
  restriction?: PlanRestriction,
): PlanRefusal => ({
  ok: false,
  reason,
  message,
  ...(restriction ? { restriction } : {}),
});

/** No night free: the set of a plan without a free-nights offer (never added to). */
const NO_FREE_NIGHTS: Set<string> = new Set();

/** A plan's rates of one room type, in the plan's order: worked out once per plan and room type. */
const ratesByRoomType = new WeakMap<PlanPricing, Map<string, readonly RateDef[]>>();
function ratesOf(plan: PlanPricing, roomTypeId: string): readonly RateDef[] {
  let byRoomType = ratesByRoomType.get(plan);
  if (!byRoomType) {
    byRoomType = new Map();
    ratesByRoomType.set(plan, byRoomType);
  }
  let rates = byRoomType.get(roomTypeId);
  if (!rates) {
    rates = plan.rates.filter((r) => r.roomTypeId === roomTypeId);
    byRoomType.set(roomTypeId, rates);
  }
  return rates;
}

/** Does the plan price this room type at all (has it a rate for it)? */
export function planSellsRoomType(plan: PlanPricing, roomTypeId: string): boolean {
  return plan.rates.some((r) => r.roomTypeId === roomTypeId);
}

/**
 * Adults who pay the full rate before children do (HotelData 2018-10 on, as rtapp): the standard
 * occupancy, less when the room's children's places would otherwise stay empty.
 */
export function fullPayersNeeded(o: Occupancy): number {
  return o.maxChildren === undefined
    ? o.standardOccupancy
    : Math.min(o.maxOccupancy - o.maxChildren, o.standardOccupancy);
}

/** The party's check against the room type's and the offer's occupancy; null when it may book. */
function occupancyRefusal(plan: PlanPricing, o: Occupancy, adults: number, children: readonly number[]) {
  const guests = adults + children.length;
  if (guests < o.minOccupancy)
    return refuse('occupancy', `The room needs at least ${o.minOccupancy} guests.`);
  if (guests > o.maxOccupancy) return refuse('occupancy', `The room takes at most ${o.maxOccupancy} guests.`);
  const r = plan.stayRules ?? {};
  const adultMinAge = r.adultMinAge === undefined ? 18 : r.adultMinAge;
  if (adultMinAge === null && children.length > 0)
    return refuse('occupancy', 'This rate is for adults only.');
  for (const age of children) {
    if (adultMinAge !== null && age >= adultMinAge)
      return refuse('occupancy', `This rate counts guests of ${adultMinAge} or older as adults.`);
    if (
      (r.childMinAge !== undefined && age < r.childMinAge) ||
      (r.childMaxAge !== undefined && age >= r.childMaxAge)
    )
      return refuse('occupancy', `This rate does not take children aged ${age}.`);
  }
  if (r.minAdults !== undefined && adults < r.minAdults)
    return refuse('occupancy', `This rate needs at least ${r.minAdults} adults.`);
  if (r.maxAdults !== undefined && adults > r.maxAdults)
    return refuse('occupancy', `This rate takes at most ${r.maxAdults} adults.`);
  if (r.minChildren !== undefined && children.length < r.minChildren)
    return refuse('occupancy', `This rate needs at least ${r.minChildren} children.`);
  if (r.maxChildren !== undefined && children.length > r.maxChildren)
    return refuse('occupancy', `This rate takes at most ${r.maxChildren} children.`);
  return null;
}

type Party = { adults: number; children: number[]; freeChildren: number };

/** Children become full payers, oldest first, until the room's full payers are there; then the family offer. */
function effectiveParty(plan: PlanPricing, o: Occupancy, adults: number, ages: readonly number[]): Party {
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
function rateAmount(plan: PlanPricing, rate: RateDef, o: Occupancy, party: Party): number | string {
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

/**
 * The cost of one room's stay under a plan, as AlpineBits HotelData 4.5 computes it and the
 * Alliance's rtapp reproduces: occupancy and offer checks, children promoted to full payers, the
 * family offer, booking rules, rates matched night by night (a rate of `unitNights` nights pays
 * its share for a part of them), free nights, mandatory supplements; then rtapp's rounding
 * (`rounding.ts`). A refusal says whether a rule forbids the stay or no rate prices it.
 */
export function pricePlanStay(
  plan: PlanPricing,
  occupancy: Occupancy,
  stay: PlanStay,
  minorDigits = 2,
): PlanPrice | PlanRefusal {
  return exactly((x) => pricePlanStayIn(x, plan, occupancy, stay, minorDigits));
}

/** `pricePlanStay` in the arithmetic `x`, which may give up (see `exactly`); for tests of both. */
export function pricePlanStayIn<T>(
  x: Exact<T>,
  plan: PlanPricing,
  occupancy: Occupancy,
  stay: PlanStay,
  minorDigits = 2,
): PlanPrice | PlanRefusal {
  const { checkIn, checkOut } = stay;
  const occupancyProblem = occupancyRefusal(plan, occupancy, stay.adults, stay.children);
  if (occupancyProblem) return occupancyProblem;
  const offerRule = stayRuleViolation(plan, checkIn, checkOut, stay.bookingDate);
  if (offerRule) return refuse('restricted', offerRule.message, offerRule);
  const party = effectiveParty(plan, occupancy, stay.adults, stay.children);
  const bookingRule = bookingRuleViolation(plan, stay.roomTypeId, checkIn, checkOut);
  if (bookingRule) return refuse('restricted', bookingRule.message, bookingRule);

  const los = nightsBetween(checkIn, checkOut);
  const unit = plan.unitNights ?? 1;
  // Every amount below is exact as a numerator over `unit × los` minor units.
  const scale = x.of(los);
  const rates = ratesOf(plan, stay.roomTypeId);
  const nightValues: T[] = [];
  const offer = plan.freeNights;
  const freeNights: Set<string> = offer ? new Set() : NO_FREE_NIGHTS;
  // The nights by index (one memoised list) rather than by date arithmetic night after night.
  const dates = eachNight(checkIn, checkOut);
  let n = 0;
  while (n < los) {
    const night = dates[n] as string;
    const rate = rates.find((r) => rateCoversNight(r, night));
    if (!rate) return refuse('unavailable', `The rate plan has no price for ${night}.`);
    const amount = rateAmount(plan, rate, occupancy, party);
    if (typeof amount === 'string') return refuse('unavailable', `The rate plan has ${amount} on ${night}.`);
    const left = los - n;
    // A weekday rate prices its nights one by one (its next night may be another rate's), and so
    // does a plan of one-night units; else a unit's nights as far as the stay and the rate go.
    const chunk =
      rate.days || unit === 1
        ? 1
        : Math.min(left, rate.to === undefined ? left : nightsBetween(night, rate.to) + 1, unit);
    let free = false;
    if (offer && los >= offer.nightsRequired && chunk === 1) {
      free = offer.repeat
        ? n % offer.nightsRequired >= offer.nightsRequired - offer.nightsDiscounted
        : left <= offer.nightsDiscounted;
    }
    // The chunk's share (amount × chunk / unit) spread evenly over its nights: amount / unit each.
    const value = free ? x.zero : x.mul(x.of(amount), scale);
    for (let i = 0; i < chunk; i++) {
      if (free) freeNights.add(dates[n + i] as string);
      nightValues.push(value);
    }
    n += chunk;
  }

  const pax = party.adults + party.children.length;
  const denominator = x.mul(x.of(unit), scale);
  const supplements = (plan.supplements ?? [])
    .filter((s) => s.mandatory)
    .map((s) => ({ id: s.id, value: supplementValue(x, s, stay, pax, los, unit, freeNights) }));
  const extras = (plan.supplements ?? [])
    .filter((s) => !s.mandatory && supplementApplies(s, stay))
    .map((s) => ({
      id: s.id,
      amount: rtappRound(
        x,
        [supplementValue(x, s, stay, pax, los, unit, freeNights)],
        denominator,
        minorDigits,
      ),
    }));

  const ratesExact = nightValues.reduce((a, b) => x.add(a, b), x.zero);
  const supplementsExact = supplements.reduce((a, s) => x.add(a, s.value), x.zero);
  const total = rtappRound(x, [ratesExact, supplementsExact], denominator, minorDigits);
  const roomsTotal = rtappRound(x, [ratesExact], denominator, minorDigits);

  const nights: PlanPrice['nights'] = [];
  let running = x.zero;
  let shown = 0;
  const part = [running];
  for (let i = 0; i < los; i++) {
    const date = dates[i] as string;
    running = x.add(running, nightValues[i] ?? x.zero);
    part[0] = running;
    const upTo = rtappRound(x, part, denominator, minorDigits);
    nights.push({ date, amount: upTo - shown, free: offer !== undefined && freeNights.has(date) });
    shown = upTo;
  }
  return {
    ok: true,
    total,
    roomsTotal,
    nights,
    supplements: splitSupplements(x, supplements, total - roomsTotal, denominator, minorDigits),
    freeNights: [...freeNights],
    freeChildren: party.freeChildren,
    extras,
  };
}
