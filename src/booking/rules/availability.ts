import type { Hotel, RatePlan, RoomTypeDef } from '../../catalog/catalog.schema.ts';
import type { Promotion } from '../../catalog/promotion.schema.ts';
import { type HotelNights, hotelNights } from '../../hotel-calendar/hotel-nights.ts';
import { discountApplies, promotionFits, unlocksPlan } from '../../promotions/rules/promotion-rules.ts';
import type { PlanPrice, PlanRefusal } from '../../rate-plans/price-plan-stay.ts';
import { sellsRoomType } from '../../rate-plans/priced-hotel.ts';
import { partyFits, type RoomParty, splitParty } from './party.ts';
import { type PriceOptions, priceStay, type StayPrice } from './pricing.ts';
import type { RestrictionViolation } from './restrictions.ts';
import type { Stay } from './stay.ts';
import { checkStayRules } from './stay-rules.ts';

export type StayRequest = Stay & {
  /** The hotel's calendar date now. */
  today: string;
  /** The moment now: a free-cancellation moment already past is `null` in the offers' terms. */
  now?: Date;
  /** The promotion code asked for, already found valid for the stay (API.md 14.1). */
  promotion?: Promotion | null;
};

export type Offer = {
  roomType: RoomTypeDef;
  ratePlan: RatePlan;
  available: number;
  price: StayPrice;
  /** The code applied to this offer: its discount, or the hidden plan it unlocks. */
  promotion?: { code: string; name: string };
};

export type UnavailableReason = 'occupancy' | 'restricted' | 'sold_out';

export type Unavailable = {
  roomType: RoomTypeDef;
  reason: UnavailableReason;
  /** For `restricted`: the violation of the first rate plan in catalogue order. */
  restriction?: RestrictionViolation;
  message: string;
};

export type StayEvaluation = { offers: Offer[]; unavailable: Unavailable[] };

/**
 * Offer rule (API.md 2.1): one offer per (room type, rate plan) pair the plan prices, the party fits,
 * no restriction is broken and enough rooms are left. A room type without any offer is reported
 * once, with the first reason that applies in the order occupancy, restricted, sold_out. Room types
 * no plan sells are not on sale at all, so they appear in neither list. Catalogue order is kept.
 *
 * `roomsLeft` gives the fewest rooms of a type left over the stay's nights; `only` narrows the
 * evaluation to one pair, as a quote does; `pricing` (search: `summary`) how much of each price to
 * work out; `nights` holds the prices and restrictions in force
 * each night (the catalogue merged with the calendar's overrides; the catalogue alone by default).
 */
export function evaluateStay(
  hotel: Hotel,
  req: StayRequest,
  roomsLeft: (roomTypeId: string) => number,
  only?: { roomTypeId: string; ratePlanId: string },
  nights: HotelNights = hotelNights(hotel),
  pricing: PriceOptions = {},
): StayEvaluation {
  const offers: Offer[] = [];
  const unavailable: Unavailable[] = [];
  const split = splitParty(req.adults, req.children.length, req.rooms);
  const promotion = req.promotion ?? null;

  for (const roomType of hotel.roomTypes) {
    if (only && roomType.id !== only.roomTypeId) continue;
    const ratePlans: RatePlan[] = [];
    for (const rp of hotel.ratePlans) {
      // Hidden rule (API.md 14.1): a hidden plan is offered only with a code that unlocks it.
      if (rp.hidden === true && !unlocksPlan(promotion, rp.id)) continue;
      if (sellsRoomType(rp, roomType.id) && (!only || rp.id === only.ratePlanId)) ratePlans.push(rp);
    }
    if (ratePlans.length === 0) continue;

    if (!partyFits(roomType, split)) {
      unavailable.push({ roomType, reason: 'occupancy', message: occupancyMessage(roomType, req, split) });
      continue;
    }

    const violations: Array<RestrictionViolation | null> = [];
    // An occupancy-priced plan may refuse the party or find no rate: that plan makes no offer.
    const missed: Array<PlanRefusal | null> = [];
    const plannedRooms: Array<PlanPrice[] | null> = [];
    for (const ratePlan of ratePlans) {
      const { violation, refused, planned } = checkStayRules(hotel, nights, roomType, ratePlan, req);
      violations.push(violation);
      missed.push(refused);
      plannedRooms.push(planned);
    }
    if (missed.length > 0 && missed.every((m) => m?.reason === 'occupancy')) {
      unavailable.push({ roomType, reason: 'occupancy', message: missed[0]?.message ?? '' });
      continue;
    }
    const available = roomsLeft(roomType.id);
    const before = offers.length;
    if (available >= req.rooms) {
      for (let i = 0; i < ratePlans.length; i++) {
        const ratePlan = ratePlans[i] as RatePlan;
        if (violations[i] || missed[i]) continue;
        const stay = {
          roomTypeId: roomType.id,
          ratePlanId: ratePlan.id,
          checkIn: req.checkIn,
          checkOut: req.checkOut,
          adults: req.adults,
          children: req.children,
          rooms: req.rooms,
          services: req.services,
          today: req.today,
        };
        const fits = promotion !== null && promotionFits(promotion, roomType.id, ratePlan.id);
        const discounted =
          fits && promotion.discount && discountApplies(promotion, roomType.id, ratePlan.id)
            ? { code: promotion.code, name: promotion.name, discount: promotion.discount }
            : undefined;
        const planned = plannedRooms[i];
        // Properties set one by one, not spread in: see docs/architecture.md, "Object spreads on hot
        // paths". Every option named (an option added to PriceOptions must be passed on here too).
        const options: { [K in keyof Required<PriceOptions>]: PriceOptions[K] } = {
          summary: pricing.summary,
          now: req.now ?? pricing.now,
          discount: discounted ?? pricing.discount,
          planned: planned ?? pricing.planned,
        };
        const offer: Offer = {
          roomType,
          ratePlan,
          available,
          price: priceStay(hotel, stay, nights, options),
        };
        if (fits) offer.promotion = { code: promotion.code, name: promotion.name };
        offers.push(offer);
      }
    }
    if (offers.length > before) continue;

    const restriction = violations.find((v) => v !== null);
    if (restriction) {
      unavailable.push({ roomType, reason: 'restricted', restriction, message: restriction.message });
    } else {
      const noRate = available >= req.rooms ? missed.find((m) => m !== null) : undefined;
      unavailable.push({
        roomType,
        reason: 'sold_out',
        message: noRate?.message ?? soldOutMessage(roomType, available),
      });
    }
  }
  return { offers, unavailable };
}

function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

function occupancyMessage(roomType: RoomTypeDef, req: StayRequest, split: readonly RoomParty[]): string {
  const children = req.children.length;
  const party = `${count(req.adults, 'adult')}${children ? ` and ${count(children, 'child', 'children')}` : ''}`;
  const rooms = count(req.rooms, roomType.name);
  if (split.some((room) => room.adults < 1))
    return `Every room needs an adult: ${party} cannot fill ${rooms}.`;
  const limits =
    `at most ${count(roomType.maxAdults, 'adult')}, ${count(roomType.maxChildren, 'child', 'children')} ` +
    `and ${count(roomType.maxOccupancy, 'guest')} per room`;
  return `A party of ${party} does not fit in ${rooms} (${limits}).`;
}

function soldOutMessage(roomType: RoomTypeDef, available: number): string {
  if (available <= 0) return `No ${roomType.name} is left for these dates.`;
  return `Only ${count(available, roomType.name)} ${available === 1 ? 'is' : 'are'} left for these dates.`;
}
