import type { Occupancy, PlanPricing, RateDef } from '../catalog/rate-plan.model.ts';
import { eachNight, nightsBetween } from '../dates/dates.ts';
import { entryOf, newMap } from '../infra/map-entry.ts';
import { type Exact, exactly } from './exact-arithmetic.ts';
import { effectiveParty, occupancyRefusal, rateAmount } from './plan-party.ts';
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
  const byRoomType = entryOf(ratesByRoomType, plan, newMap);
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
  if (occupancyProblem) return refuse('occupancy', occupancyProblem);
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
    nights.push({ date, amount: upTo - shown, free: freeNights.has(date) });
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
