import type { Hotel, RatePlan, RoomTypeDef } from '../../catalog/catalog.schema.ts';
import { addDays } from '../../dates/dates.ts';
import type { NightRestrictions } from '../../hotel-calendar/catalogue-night.ts';
import type { HotelNights } from '../../hotel-calendar/hotel-nights.ts';
import { sellsRoomType } from '../../rate-plans/priced-hotel.ts';
import { partyFits, splitParty } from './party.ts';
import { priceRoomsUnderPlan } from './plan-pricing.ts';
import { roomNightAmount } from './pricing.ts';

/**
 * One night of the price calendar (API.md 9.1), pure: whether a party can have a room that night
 * and from what price, and the restrictions a date picker needs. A (room type, rate plan) pair
 * sells the night when the party fits the room type, enough rooms are left (`rooms` of them, as
 * search asks), the plan prices the room type and no stop-sell covers the night; `fromPrice` is the
 * lowest room price of the night among those pairs, all rooms together: the `nightly` amount a
 * search shows for that night. An occupancy-priced plan (§9.3) is priced for a one-night stay.
 */

export type Party = { adults: number; children: readonly number[]; rooms: number };

export type NightOffer = {
  date: string;
  available: boolean;
  /** Minor units; null when not available. */
  fromPrice: number | null;
  closedToArrival: boolean;
  closedToDeparture: boolean;
  minStay: number | null;
};

type Pair = { restrictions: NightRestrictions; price: number | null };

function pairPrice(
  hotel: Hotel,
  roomType: RoomTypeDef,
  plan: RatePlan,
  nights: HotelNights,
  night: string,
  party: Party,
  today: string,
): number | null {
  const split = splitParty(party.adults, party.children.length, party.rooms);
  if (plan.pricing) {
    const stay = { ...party, checkIn: night, checkOut: addDays(night, 1), today };
    const planned = priceRoomsUnderPlan(hotel, roomType, plan.pricing, stay);
    if (!planned.ok) return null;
    return planned.rooms.reduce((sum, room) => sum + (room.nights[0]?.amount ?? 0), 0);
  }
  const price = nights.priceOn(roomType.id, plan.id, night);
  return split.reduce((sum, room) => sum + roomNightAmount(price, room), 0);
}

/**
 * The night `night` for `party`. `today` is the hotel's date: nights before it are not available;
 * an arrival beyond the hotel's booking window (`maxDaysBeforeArrival`) is closed.
 */
export function nightOffer(
  hotel: Hotel,
  nights: HotelNights,
  night: string,
  party: Party,
  today: string,
): NightOffer {
  const split = splitParty(party.adults, party.children.length, party.rooms);
  const candidates: Pair[] = [];
  for (const roomType of hotel.roomTypes) {
    if (!partyFits(roomType, split)) continue;
    const roomsLeft = night >= today && nights.leftOn(roomType.id, night) >= party.rooms;
    for (const plan of hotel.ratePlans) {
      // A hidden plan (API.md 14.1) is sold only with its code: it shows no price to everyone.
      if (plan.hidden === true || !sellsRoomType(plan, roomType.id)) continue;
      const restrictions = nights.restrictionsOn(roomType.id, plan.id, night);
      const sells = roomsLeft && !restrictions.stopSell;
      const price = sells ? pairPrice(hotel, roomType, plan, nights, night, party, today) : null;
      candidates.push({ restrictions, price });
    }
  }
  const selling = candidates.filter((p) => p.price !== null);
  // The date picker's rules: of the pairs that sell the night, else of every pair that could.
  const ruling = selling.length > 0 ? selling : candidates;
  const beyondWindow =
    hotel.maxDaysBeforeArrival !== null && night > addDays(today, hotel.maxDaysBeforeArrival);
  const fromPrice = selling.length > 0 ? Math.min(...selling.map((p) => p.price as number)) : null;
  const minStays = ruling.map((p) => p.restrictions.minStay?.nights ?? null);
  return {
    date: night,
    available: fromPrice !== null,
    fromPrice,
    closedToArrival:
      beyondWindow ||
      night < today ||
      (ruling.length > 0 && ruling.every((p) => p.restrictions.closedToArrival)),
    closedToDeparture: ruling.length > 0 && ruling.every((p) => p.restrictions.closedToDeparture),
    minStay: minStays.length === 0 || minStays.includes(null) ? null : Math.min(...(minStays as number[])),
  };
}
