import type { Hotel, RatePlan, RoomTypeDef } from '../../catalog/catalog.schema.ts';
import { type HotelNights, hotelNights } from '../../hotel-calendar/hotel-nights.ts';
import { partyFits, type RoomParty, splitParty } from './party.ts';
import { priceStay, type StayPrice, sellsRoomType } from './pricing.ts';
import { findRestriction, type RestrictionViolation } from './restrictions.ts';

export type StayRequest = {
  checkIn: string;
  checkOut: string;
  adults: number;
  /** Ages. */
  children: number[];
  rooms: number;
  services: string[];
  /** The hotel's calendar date now. */
  today: string;
};

export type Offer = { roomType: RoomTypeDef; ratePlan: RatePlan; available: number; price: StayPrice };

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
 * evaluation to one pair, as a quote does; `nights` holds the prices and restrictions in force
 * each night (the catalogue merged with the calendar's overrides; the catalogue alone by default).
 */
export function evaluateStay(
  hotel: Hotel,
  req: StayRequest,
  roomsLeft: (roomTypeId: string) => number,
  only?: { roomTypeId: string; ratePlanId: string },
  nights: HotelNights = hotelNights(hotel),
): StayEvaluation {
  const offers: Offer[] = [];
  const unavailable: Unavailable[] = [];
  const split = splitParty(req.adults, req.children.length, req.rooms);

  for (const roomType of hotel.roomTypes) {
    if (only && roomType.id !== only.roomTypeId) continue;
    const ratePlans = hotel.ratePlans.filter(
      (rp) => sellsRoomType(rp, roomType.id) && (!only || rp.id === only.ratePlanId),
    );
    if (ratePlans.length === 0) continue;

    if (!partyFits(roomType, split)) {
      unavailable.push({ roomType, reason: 'occupancy', message: occupancyMessage(roomType, req, split) });
      continue;
    }

    const violations = ratePlans.map((ratePlan) =>
      findRestriction(
        hotel,
        {
          roomTypeId: roomType.id,
          ratePlanId: ratePlan.id,
          checkIn: req.checkIn,
          checkOut: req.checkOut,
          today: req.today,
        },
        nights,
      ),
    );
    const available = roomsLeft(roomType.id);
    const before = offers.length;
    if (available >= req.rooms) {
      ratePlans.forEach((ratePlan, i) => {
        if (violations[i]) return;
        const stay = { ...req, roomTypeId: roomType.id, ratePlanId: ratePlan.id };
        const price = priceStay(hotel, stay, nights);
        offers.push({ roomType, ratePlan, available, price });
      });
    }
    if (offers.length > before) continue;

    const restriction = violations.find((v) => v !== null);
    if (restriction) {
      unavailable.push({ roomType, reason: 'restricted', restriction, message: restriction.message });
    } else {
      unavailable.push({ roomType, reason: 'sold_out', message: soldOutMessage(roomType, available) });
    }
  }
  return { offers, unavailable };
}

function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

function occupancyMessage(roomType: RoomTypeDef, req: StayRequest, split: RoomParty[]): string {
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
