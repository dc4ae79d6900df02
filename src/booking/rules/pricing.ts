import type { Hotel, RatePlan, RoomTypeDef, ServiceDef } from '../../catalog/catalog.schema.ts';
import type { PromotionDiscount } from '../../catalog/promotion.schema.ts';
import { eachNight } from '../../dates/dates.ts';
import type { NightPrice } from '../../hotel-calendar/catalogue-night.ts';
import { type HotelNights, hotelNights } from '../../hotel-calendar/hotel-nights.ts';
import type { Money } from '../../infra/currency.ts';
import { discountAmount } from '../../promotions/rules/promotion-rules.ts';
import type { PlanPrice } from '../../rate-plans/price-plan-stay.ts';
import { sellsRoomType } from '../../rate-plans/priced-hotel.ts';
import type { PriceLine } from '../../reservations/reservation.schemas.ts';
import { type CancellationPolicy, cancellationPolicyFor, policyAsOf } from './cancellation-policy.ts';
import { type RoomParty, splitParty } from './party.ts';
import {
  optionalSupplement,
  type PlanDetails,
  planDetails,
  planSupplementLines,
  priceRoomsUnderPlan,
} from './plan-pricing.ts';
import type { Stay } from './stay.ts';
import { addedTaxQuantity, includedTaxAmount } from './tax-amount.ts';

export type IncludedTax = { code: string; name: string; amount: Money };

export type StayPrice = {
  /** Room price per night, all rooms together. */
  nightly: Array<{ date: string; amount: Money }>;
  lines: PriceLine[];
  roomsTotal: Money;
  servicesTotal: Money;
  addedTaxesTotal: Money;
  /** What a promotion code took off the room lines (positive; 0 without one). */
  discountTotal: Money;
  /** Rooms − discount + services + added taxes; always the sum of `lines`. */
  total: Money;
  includedTaxes: IncludedTax[];
  cancellationPolicy: CancellationPolicy;
  /** An occupancy-priced plan's texts and offers applied (docs/api.md §9.3). */
  plan?: PlanDetails;
};

/** One room type under one rate plan for a stay: what `priceStay` prices (a search request may leave both open). */
export type StayToPrice = Stay & {
  roomTypeId: string;
  ratePlanId: string;
  /** The hotel's date of the booking (an occupancy-priced plan's advance booking); default the check-in. */
  today?: string;
};

/** Room price rule: base + extraAdult per adult above includedAdults + child per child. */
export function roomNightAmount(price: NightPrice, room: RoomParty): number {
  return (
    price.base +
    price.extraAdult * Math.max(0, room.adults - price.includedAdults) +
    price.child * room.children
  );
}

function serviceQuantity(service: ServiceDef, input: StayToPrice, nights: number): number {
  switch (service.pricing) {
    case 'per_stay':
      return 1;
    case 'per_night':
      return nights;
    case 'per_room_per_night':
      return input.rooms * nights;
    case 'per_guest_per_night':
      return (input.adults + input.children.length) * nights;
  }
}

function _sum(amounts: number[]): number {
  return amounts.reduce((a, b) => a + b, 0);
}

/**
 * `summary`: what a search shows of an offer — the nightly room prices, the total and the
 * cancellation terms — without the priced lines and the included taxes (left empty), worked out
 * by the same rules with no line objects made. A quote prices the full stay.
 */
export type PriceOptions = {
  summary?: boolean;
  /** The moment of the search or quote: a free-cancellation moment already past it is `null`. */
  now?: Date;
  /** A promotion code's discount that applies to this room type and rate plan (API.md 14.1). */
  discount?: { code: string; name: string; discount: PromotionDiscount };
  /**
   * The occupancy-priced plan's rooms as `checkStayRules` priced them for this same stay: taken as
   * they are instead of pricing every room again.
   */
  planned?: PlanPrice[];
};

/** Room types and rate plans by id, per catalogue version (the hotel object). */
const indexes = new WeakMap<
  Hotel,
  { roomTypes: Map<string, RoomTypeDef>; ratePlans: Map<string, RatePlan> }
>();
function indexOf(hotel: Hotel) {
  let index = indexes.get(hotel);
  if (!index) {
    index = {
      roomTypes: new Map(hotel.roomTypes.map((r) => [r.id, r])),
      ratePlans: new Map(hotel.ratePlans.map((p) => [p.id, p])),
    };
    indexes.set(hotel, index);
  }
  return index;
}

function money(amount: number, currency: string): Money {
  return { amount, currency };
}

function line(
  currency: string,
  type: PriceLine['type'],
  code: string,
  name: string,
  quantity: number,
  unitAmount: number,
  date?: string,
): PriceLine {
  return {
    type,
    code,
    name,
    ...(date === undefined ? {} : { date }),
    quantity,
    unitAmount: money(unitAmount, currency),
    amount: money(unitAmount * quantity, currency),
  };
}

/**
 * Prices a stay exactly as API.md section 6 describes, each night at the price fields in force
 * (`nights`: the catalogue merged with the calendar's overrides; the catalogue alone by default).
 * The caller has already checked that the rate plan sells the room type and that the requested
 * services exist; a breach of either throws.
 */
export function priceStay(
  hotel: Hotel,
  input: StayToPrice,
  nights: HotelNights = hotelNights(hotel),
  options: PriceOptions = {},
): StayPrice {
  const index = indexOf(hotel);
  const roomType = index.roomTypes.get(input.roomTypeId);
  if (!roomType) throw new Error(`Unknown room type ${input.roomTypeId} in hotel ${hotel.id}`);
  const ratePlan = index.ratePlans.get(input.ratePlanId);
  if (!ratePlan) throw new Error(`Unknown rate plan ${input.ratePlanId} in hotel ${hotel.id}`);
  if (!sellsRoomType(ratePlan, roomType.id))
    throw new Error(`Rate plan ${ratePlan.id} does not price room type ${roomType.id}`);
  const summary = options.summary === true;

  const currency = hotel.currency;

  const dates = eachNight(input.checkIn, input.checkOut);
  const split = splitParty(input.adults, input.children.length, input.rooms);
  const planned = !ratePlan.pricing
    ? null
    : options.planned
      ? { ok: true as const, rooms: options.planned }
      : priceRoomsUnderPlan(
          hotel,
          roomType,
          ratePlan.pricing,
          Object.assign({}, input, { today: input.today ?? input.checkIn }),
        );
  if (planned && !planned.ok)
    throw new Error(`Rate plan ${ratePlan.id} refuses the stay: ${planned.message}`);
  // The price of room `r` on night `n`: the plan's own night by night, else the catalogue's price rule.
  const unitOf = (r: number, n: number, price: NightPrice | null) =>
    planned?.ok
      ? (planned.rooms[r]?.nights[n]?.amount ?? 0)
      : roomNightAmount(price as NightPrice, split[r] as RoomParty);

  // A dense window (search) holds the pair's prices by night index: no lookup by date per night.
  const window = planned
    ? null
    : (nights.stayNights?.(roomType.id, ratePlan.id, input.checkIn, input.checkOut) ?? null);
  const roomLines: PriceLine[] = [];
  const nightly: StayPrice['nightly'] = [];
  let roomsTotal = 0;
  for (let n = 0; n < dates.length; n++) {
    const date = dates[n] as string;
    const price = planned
      ? null
      : window
        ? window.price(window.from + n)
        : nights.priceOn(roomType.id, ratePlan.id, date);
    let amount = 0;
    if (summary) {
      for (let r = 0; r < split.length; r++) amount += unitOf(r, n, price);
    } else {
      const roomsAtPrice = new Map<number, number>();
      for (let r = 0; r < split.length; r++) {
        const unit = unitOf(r, n, price);
        roomsAtPrice.set(unit, (roomsAtPrice.get(unit) ?? 0) + 1);
      }
      const byPriceDescending = [...roomsAtPrice].sort(([a], [b]) => b - a);
      for (const [unit, count] of byPriceDescending) {
        roomLines.push(line(currency, 'room', roomType.id, roomType.name, count, unit, date));
        amount += unit * count;
      }
    }
    roomsTotal += amount;
    nightly.push({ date, amount: money(amount, currency) });
  }

  // Discount rule (API.md 14.1): off the room lines only, never more than they come to.
  const discountLines: PriceLine[] = [];
  let discountTotal = 0;
  if (options.discount) {
    const off = discountAmount(options.discount.discount, roomsTotal, input.rooms, dates.length);
    discountTotal = off;
    if (!summary && off > 0)
      discountLines.push(line(currency, 'discount', options.discount.code, options.discount.name, 1, -off));
  }

  const serviceLines: PriceLine[] = [];
  let servicesTotal = 0;
  if (planned?.ok && ratePlan.pricing) {
    for (const s of planSupplementLines(ratePlan.pricing, planned.rooms, input.services)) {
      servicesTotal += s.amount;
      if (!summary) serviceLines.push(line(currency, 'service', s.id, s.name, 1, s.amount));
    }
  }
  for (let i = 0; i < input.services.length; i++) {
    const serviceId = input.services[i] as string;
    if (input.services.indexOf(serviceId) !== i) continue; // a repeated id counts once
    const service = hotel.services.find((s) => s.id === serviceId);
    // A plan's extra is priced with its supplements above; another plan's is not offered here.
    if (!service && hotel.ratePlans.some((p) => optionalSupplement(p.pricing, serviceId))) continue;
    if (!service) throw new Error(`Unknown service ${serviceId} in hotel ${hotel.id}`);
    const quantity = serviceQuantity(service, input, dates.length);
    servicesTotal += service.amount * quantity;
    if (!summary)
      serviceLines.push(line(currency, 'service', service.id, service.name, quantity, service.amount));
  }

  const taxLines: PriceLine[] = [];
  const includedTaxes: IncludedTax[] = [];
  let addedTaxesTotal = 0;
  for (const tax of hotel.taxes) {
    if (tax.type === 'percent_included') {
      if (summary) continue;
      const amount = includedTaxAmount(roomsTotal - discountTotal + servicesTotal, tax.rate);
      includedTaxes.push({ code: tax.code, name: tax.name, amount: money(amount, currency) });
    } else {
      const quantity = addedTaxQuantity(tax, input.adults, dates.length);
      addedTaxesTotal += tax.amount * quantity;
      if (!summary) taxLines.push(line(currency, 'tax', tax.code, tax.name, quantity, tax.amount));
    }
  }
  const total = roomsTotal - discountTotal + servicesTotal + addedTaxesTotal;
  const policy = cancellationPolicyFor(hotel, ratePlan, input.checkIn, nightly, total);
  // A discounted stay never costs more to cancel than it costs.
  if (policy.penalty.amount > total) policy.penalty = money(total, currency);

  return {
    nightly,
    lines: summary ? [] : [...roomLines, ...discountLines, ...serviceLines, ...taxLines],
    roomsTotal: money(roomsTotal, currency),
    servicesTotal: money(servicesTotal, currency),
    addedTaxesTotal: money(addedTaxesTotal, currency),
    discountTotal: money(discountTotal, currency),
    total: money(total, currency),
    includedTaxes,
    cancellationPolicy: policyAsOf(policy, options.now),
    ...(planned?.ok && ratePlan.pricing
      ? { plan: planDetails(ratePlan.pricing, planned.rooms, currency) }
      : {}),
  };
}
