import type { BookingRuleDef, PlanPricing, RateDef, StayRulesDef } from '../catalog/rate-plan.model.ts';
import { safeXmlReader, XmlRefused } from '../infra/xml/safe-xml.ts';
import { parseOffers, parseSupplements } from './rate-plan-notif.parts.ts';
import {
  amount,
  bool,
  date,
  fail,
  int,
  lengthsOfStay,
  list,
  type Node,
  rateWeekdays,
  texts,
  weekdays,
} from './rate-plan-notif.xml.ts';

export { RatePlanNotifError } from './rate-plan-notif.xml.ts';

/** One `RatePlan` of a message: what to do with the plan of that code. */
export type RatePlanChange =
  | { code: string; type: 'New'; pricing: PlanPricing }
  | { code: string; type: 'Overlay'; overlay: Pick<PlanPricing, 'rates' | 'bookingRules' | 'supplements'> }
  | { code: string; type: 'Remove' };

export type RatePlanNotif = { hotelCode: string; completeSet: boolean; changes: RatePlanChange[] };

const LISTS = new Set([
  'RatePlan',
  'BookingRule',
  'LengthOfStay',
  'Rate',
  'BaseByGuestAmt',
  'AdditionalGuestAmount',
  'Supplement',
  'Offer',
  'Occupancy',
  'Description',
  'Text',
  'ListItem',
]);

const read = safeXmlReader({ repeated: LISTS, attributePrefix: '' });

/** The message's XML read into its rate plan changes; DTDs and entity declarations are refused. */
export function parseRatePlanNotif(xml: string, currencyDigits: (currency: string) => number): RatePlanNotif {
  let doc: Node;
  try {
    doc = read(xml);
  } catch (error) {
    if (error instanceof XmlRefused) fail(error.message);
    throw error;
  }
  const root = doc.OTA_HotelRatePlanNotifRQ;
  if (!root) fail('the request is not an OTA_HotelRatePlanNotifRQ');
  const ratePlans = root.RatePlans;
  const hotelCode = ratePlans?.HotelCode;
  if (typeof hotelCode !== 'string' || hotelCode === '') fail('RatePlans: HotelCode is required');
  const completeSet = root.UniqueID?.Instance === 'CompleteSet';
  const changes = list(ratePlans?.RatePlan).map((plan: Node, i: number) =>
    parsePlan(plan, i, currencyDigits),
  );
  return { hotelCode, completeSet, changes };
}

function parsePlan(plan: Node, i: number, currencyDigits: (currency: string) => number): RatePlanChange {
  const code = plan.RatePlanCode;
  const at = `RatePlan ${i + 1}`;
  if (typeof code !== 'string' || code === '') fail(`${at}: RatePlanCode is required`);
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(code))
    fail(`${at}: RatePlanCode ${code} must be 1–64 letters, digits, "_", "." or "-"`);
  const join = joinOf(plan, at);
  const type = plan.RatePlanNotifType;
  if (type === 'Remove') return { code, type };
  if (type !== 'New' && type !== 'Overlay') fail(`${at}: RatePlanNotifType must be New, Overlay or Remove`);
  const currency = plan.CurrencyCode;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) fail(`${at}: CurrencyCode is required`);
  const digits = currencyDigits(currency);
  const rates = list(plan.Rates?.Rate);
  const staticRate =
    rates[0] && rates[0].InvTypeCode === undefined && rates[0].Start === undefined ? rates[0] : undefined;
  const datedRates = rates
    .filter((r) => r !== staticRate)
    .map((r, k) => parseRate(r, digits, `${at} Rate ${k + 1}`));
  const bookingRules = list(plan.BookingRules?.BookingRule).map((r, k) =>
    parseBookingRule(r, `${at} BookingRule ${k + 1}`),
  );
  const supplements = parseSupplements(list(plan.Supplements?.Supplement), digits, at);
  if (type === 'Overlay') {
    if (plan.Offers || plan.Description) fail(`${at}: an Overlay carries no Offers or Description`);
    return { code, type, overlay: { rates: datedRates, bookingRules, supplements } };
  }
  if (join && !join.master && (plan.Offers || plan.Description))
    fail(
      `${at}: a derived rate plan (RatePlanQualifier="false") carries no Offers or Description: it takes its master's`,
    );
  const base = list(staticRate?.BaseByGuestAmts?.BaseByGuestAmt)[0];
  const per =
    base?.Type === '25'
      ? 'room'
      : base?.Type === '7'
        ? 'person'
        : fail(`${at}: the static Rate's BaseByGuestAmt Type must be 7 or 25`);
  const meals = mealsOf(staticRate?.MealsIncluded);
  const { stayRules, freeNights, familyOffer } = parseOffers(list(plan.Offers?.Offer), at);
  const names = texts(plan.Description, 'title');
  const descriptions = texts(plan.Description, 'intro') ?? texts(plan.Description, 'description');
  const pricing: PlanPricing = {
    per: per as 'person' | 'room',
    ...(staticRate?.UnitMultiplier
      ? { unitNights: int(staticRate.UnitMultiplier, `${at} UnitMultiplier`) }
      : {}),
    ...(meals ? { meals } : {}),
    rates: datedRates,
    ...(bookingRules.length ? { bookingRules } : {}),
    ...(supplements.length ? { supplements } : {}),
    ...(stayRules ? { stayRules: stayRules as StayRulesDef } : {}),
    ...(freeNights ? { freeNights } : {}),
    ...(familyOffer ? { familyOffer } : {}),
    ...(names ? { names } : {}),
    ...(descriptions ? { descriptions } : {}),
    ...(join ? { join } : {}),
  };
  return { code, type, pricing };
}

/**
 * RatePlanJoin (HotelData 4.5): `RatePlanID` names a group, `RatePlanQualifier="true"` its master
 * (a plan complete in itself), `"false"` a plan derived from it. Neither: a plan on its own.
 */
function joinOf(plan: Node, at: string): PlanPricing['join'] {
  const id = plan.RatePlanID;
  const qualifier = plan.RatePlanQualifier;
  if (id === undefined && qualifier === undefined) return undefined;
  if (typeof id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(id))
    fail(`${at}: RatePlanID must be 1–64 letters, digits, "_", "." or "-" when RatePlanQualifier is sent`);
  if (qualifier === undefined) return { id: id as string, master: true };
  if (!['true', 'false', '1', '0'].includes(qualifier))
    fail(`${at}: RatePlanQualifier must be true or false`);
  return { id: id as string, master: bool(qualifier) };
}

function mealsOf(node: Node): PlanPricing['meals'] | undefined {
  if (!node) return undefined;
  const byCode: Record<string, PlanPricing['meals']> = {
    '1': { breakfast: true, lunch: true, dinner: true },
    '3': { breakfast: true },
    '10': { breakfast: true, lunch: true, dinner: true },
    '12': { breakfast: true, dinner: true },
    '14': {},
  };
  const fromCode = byCode[node.MealPlanCodes as string];
  if (fromCode) return fromCode;
  return { breakfast: bool(node.Breakfast), lunch: bool(node.Lunch), dinner: bool(node.Dinner) };
}

function parseRate(rate: Node, digits: number, at: string): RateDef {
  const roomTypeId = rate.InvTypeCode;
  if (typeof roomTypeId !== 'string' || roomTypeId === '') fail(`${at}: InvTypeCode is required`);
  const days = rateWeekdays(rate, at);
  const byGuests = list(rate.BaseByGuestAmts?.BaseByGuestAmt).map((b: Node) => ({
    guests: int(b.NumberOfGuests, `${at} NumberOfGuests`),
    amount: amount(b.AmountAfterTax, digits, `${at} AmountAfterTax`),
  }));
  if (byGuests.length === 0) fail(`${at}: at least one BaseByGuestAmt is required`);
  let extraAdult: number | undefined;
  const children: NonNullable<RateDef['children']> = [];
  for (const a of list(rate.AdditionalGuestAmounts?.AdditionalGuestAmount)) {
    const value = amount(a.Amount, digits, `${at} AdditionalGuestAmount Amount`);
    if (a.AgeQualifyingCode === '10') extraAdult = value;
    else if (a.AgeQualifyingCode === '8')
      children.push({
        ...(a.MinAge ? { minAge: int(a.MinAge, `${at} MinAge`) } : {}),
        ...(a.MaxAge ? { maxAge: int(a.MaxAge, `${at} MaxAge`) } : {}),
        amount: value,
      });
    else fail(`${at}: AdditionalGuestAmount AgeQualifyingCode must be 8 or 10`);
  }
  return {
    roomTypeId,
    from: date(rate.Start, `${at} Start`),
    to: date(rate.End, `${at} End`),
    ...(days ? { days } : {}),
    byGuests,
    ...(extraAdult === undefined ? {} : { extraAdult }),
    ...(children.length ? { children } : {}),
  };
}

function parseBookingRule(rule: Node, at: string): BookingRuleDef {
  const dows = rule.DOW_Restrictions;
  const arrivalDays = weekdays(dows?.ArrivalDaysOfWeek);
  const departureDays = weekdays(dows?.DepartureDaysOfWeek);
  return {
    ...(rule.Code ? { roomTypeId: String(rule.Code) } : {}),
    from: date(rule.Start, `${at} Start`),
    to: date(rule.End, `${at} End`),
    ...(rule.RestrictionStatus?.Status === 'Close' ? { closed: true } : {}),
    ...lengthsOfStay(rule.LengthsOfStay, at),
    ...(arrivalDays ? { arrivalDays } : {}),
    ...(departureDays ? { departureDays } : {}),
  };
}
