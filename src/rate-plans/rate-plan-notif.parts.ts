import type { PlanPricing, StayRulesDef, SupplementDef } from '../catalog/rate-plan.model.ts';
import {
  amount,
  bool,
  date,
  fail,
  int,
  lengthsOfStay,
  list,
  type Node,
  texts,
  weekdays,
} from './rate-plan-notif.xml.ts';

const CHARGES: Record<string, SupplementDef['charge']> = {
  '1': 'per_night',
  '12': 'per_stay',
  '18': 'per_room_per_stay',
  '19': 'per_room_per_night',
  '20': 'per_person_per_stay',
  '21': 'per_person_per_night',
  '24': 'per_item',
};
const DOW_ORDER = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/**
 * Supplements: per InvCode one "static" element (ChargeTypeCode, MandatoryIndicator, the weekdays
 * of an ALPINEBITSDOW prerequisite, its descriptions) and dated ones (Start, End, Amount, maybe
 * for one ROOMTYPE). An Overlay sends dated ones only: their charge is then taken from the plan.
 */
export function parseSupplements(elements: Node[], digits: number, at: string): SupplementDef[] {
  const byCode = new Map<string, SupplementDef>();
  const get = (code: string) => {
    let s = byCode.get(code);
    if (!s) {
      s = { id: code, charge: 'per_stay', mandatory: false, prices: [] };
      byCode.set(code, s);
    }
    return s;
  };
  elements.forEach((el: Node, k: number) => {
    const here = `${at} Supplement ${k + 1}`;
    const code = el.InvCode;
    if (typeof code !== 'string' || code === '') fail(`${here}: InvCode is required`);
    const s = get(code);
    const pre = el.PrerequisiteInventory;
    if (el.ChargeTypeCode !== undefined) {
      const charge = CHARGES[el.ChargeTypeCode as string];
      if (!charge) fail(`${here}: unknown ChargeTypeCode ${el.ChargeTypeCode}`);
      s.charge = charge as SupplementDef['charge'];
      s.mandatory = bool(el.MandatoryIndicator);
      if (pre?.InvType === 'ALPINEBITSDOW') {
        const pattern = String(pre.InvCode ?? '');
        if (!/^[01]{7}$/.test(pattern))
          fail(`${here}: an ALPINEBITSDOW InvCode is seven 0s and 1s, Monday first`);
        if (pattern !== '1111111') s.days = DOW_ORDER.filter((_, d) => pattern[d] === '1');
      }
      const names = texts(el.Description, 'title');
      const descriptions = texts(el.Description, 'intro') ?? texts(el.Description, 'description');
      if (names) s.names = names;
      if (descriptions) s.descriptions = descriptions;
    } else {
      s.prices.push({
        from: date(el.Start, `${here} Start`),
        to: date(el.End, `${here} End`),
        amount: amount(el.Amount, digits, `${here} Amount`),
        ...(pre?.InvType === 'ROOMTYPE' ? { roomTypeId: String(pre.InvCode) } : {}),
      });
    }
  });
  return [...byCode.values()];
}

/** Offers: the first holds the OfferRule (who and when); the others a free-nights or a family discount. */
export function parseOffers(
  offers: Node[],
  at: string,
): {
  stayRules?: StayRulesDef;
  freeNights?: PlanPricing['freeNights'];
  familyOffer?: PlanPricing['familyOffer'];
} {
  if (offers.length === 0) return {};
  const out: ReturnType<typeof parseOffers> = {};
  const rule = offers[0]?.OfferRules?.OfferRule;
  if (rule) out.stayRules = stayRulesOf(rule, `${at} OfferRule`);
  for (const [k, offer] of offers.slice(1).entries()) {
    const here = `${at} Offer ${k + 2}`;
    const discount = offer.Discount;
    if (!discount) fail(`${here}: a Discount is required`);
    if (discount.NightsRequired !== undefined) {
      out.freeNights = {
        nightsRequired: int(discount.NightsRequired, `${here} NightsRequired`),
        nightsDiscounted: int(discount.NightsDiscounted, `${here} NightsDiscounted`),
        ...(discount.DiscountPattern ? { repeat: true } : {}),
      };
    } else {
      const guest = offer.Guests?.Guest;
      if (!guest) fail(`${here}: a free-nights Discount or a Guests element is required`);
      out.familyOffer = {
        maxAge: int(guest.MaxAge, `${here} MaxAge`),
        minChildren: int(guest.MinCount, `${here} MinCount`),
        freeChildren: int(guest.LastQualifyingPosition, `${here} LastQualifyingPosition`),
      };
    }
  }
  return out;
}

function days(offset: unknown, what: string): number | undefined {
  if (offset === undefined) return undefined;
  const match = /^P(\d+)D$/.exec(String(offset));
  return match ? Number(match[1]) : fail(`${what}: an offset like P5D is required`);
}

function stayRulesOf(rule: Node, at: string): StayRulesDef {
  const r: StayRulesDef = { ...pickStay(lengthsOfStay(rule.LengthsOfStay, at)) };
  const arrivalDays = weekdays(rule.DOW_Restrictions?.ArrivalDaysOfWeek);
  const departureDays = weekdays(rule.DOW_Restrictions?.DepartureDaysOfWeek);
  if (arrivalDays) r.arrivalDays = arrivalDays;
  if (departureDays) r.departureDays = departureDays;
  const min = days(rule.MinAdvancedBookingOffset, `${at} MinAdvancedBookingOffset`);
  const max = days(rule.MaxAdvancedBookingOffset, `${at} MaxAdvancedBookingOffset`);
  if (min !== undefined) r.minAdvanceDays = min;
  if (max !== undefined) r.maxAdvanceDays = max;
  // Without an adults' MinAge every guest is an adult: the plan takes no children (rtapp).
  r.adultMinAge = null;
  for (const o of list(rule.Occupancy)) {
    const opt = (v: unknown, what: string) =>
      v === undefined ? undefined : int(v, `${at} Occupancy ${what}`);
    if (o.AgeQualifyingCode === '10') {
      const minAge = opt(o.MinAge, 'MinAge');
      if (minAge !== undefined) r.adultMinAge = minAge;
      const minOcc = opt(o.MinOccupancy, 'MinOccupancy');
      const maxOcc = opt(o.MaxOccupancy, 'MaxOccupancy');
      if (minOcc !== undefined) r.minAdults = minOcc;
      if (maxOcc !== undefined) r.maxAdults = maxOcc;
    } else if (o.AgeQualifyingCode === '8') {
      const minAge = opt(o.MinAge, 'MinAge');
      const maxAge = opt(o.MaxAge, 'MaxAge');
      const minOcc = opt(o.MinOccupancy, 'MinOccupancy');
      const maxOcc = opt(o.MaxOccupancy, 'MaxOccupancy');
      if (minAge !== undefined) r.childMinAge = minAge;
      if (maxAge !== undefined) r.childMaxAge = maxAge;
      if (minOcc !== undefined) r.minChildren = minOcc;
      if (maxOcc !== undefined) r.maxChildren = maxOcc;
    }
  }
  return r;
}

function pickStay(los: { minStay?: number; maxStay?: number }): Pick<StayRulesDef, 'minStay' | 'maxStay'> {
  return {
    ...(los.minStay !== undefined ? { minStay: los.minStay } : {}),
    ...(los.maxStay !== undefined ? { maxStay: los.maxStay } : {}),
  };
}
