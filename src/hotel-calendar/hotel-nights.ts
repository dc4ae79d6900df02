import type { Hotel } from '../catalog/catalog.schema.ts';
import { eachNight } from '../dates/dates.ts';
import { entryOf, newMap } from '../infra/map-entry.ts';
import { sellsRoomType } from '../rate-plans/priced-hotel.ts';
import {
  cataloguePrice,
  catalogueRestrictions,
  type NightPrice,
  type NightRestrictions,
  type RuleSource,
  type StayLimit,
} from './catalogue-night.ts';
import { NightMemo } from './night-memo.ts';
import { PairNights, PairStay, type PairStayNights } from './stay-nights.ts';

/**
 * The one answer to "what is the price and the rule for this room type on this night": the
 * catalogue (plan prices, seasons, restrictions) with the operator calendar's overrides on top,
 * which win for the nights they name (API.md 7.4). Pure: the overrides and the rooms sold are
 * read by `calendar.repository.ts` and handed in; search, quote, reservation, modification and the
 * calendar itself all ask this view.
 */

/** One night's override of a room type's rooms and restrictions; `null` = not overridden. */
export type RoomNightOverride = {
  rooms: number | null;
  stopSell: boolean | null;
  closedToArrival: boolean | null;
  closedToDeparture: boolean | null;
  minStay: number | null;
  maxStay: number | null;
};

/** One night's override of a room type's price under one rate plan; `null` = not overridden. */
export type PriceNightOverride = {
  base: number | null;
  includedAdults: number | null;
  extraAdult: number | null;
  child: number | null;
};

/** What the database holds for a range of nights: overrides and the per-night inventory rows. */
export type CalendarState = {
  rooms: Map<string, RoomNightOverride>;
  prices: Map<string, PriceNightOverride>;
  /** Inventory rows (created on first sale): the night's total, rooms sold and the row's version. */
  inventory: Map<string, { total: number; sold: number; version: number }>;
};

export const roomNightKey = (roomTypeId: string, night: string) => `${roomTypeId}\u0000${night}`;
export const priceNightKey = (roomTypeId: string, ratePlanId: string, night: string) =>
  `${roomTypeId}\u0000${ratePlanId}\u0000${night}`;

export const emptyCalendarState = (): CalendarState => ({
  rooms: new Map(),
  prices: new Map(),
  inventory: new Map(),
});

/** The merged view of a hotel's nights. Nights outside the range it was loaded for show the catalogue alone. */
export interface HotelNights {
  readonly hotel: Hotel;
  /** Sellable rooms that night: the override, else the catalogue count. */
  roomsOn(roomTypeId: string, night: string): number;
  soldOn(roomTypeId: string, night: string): number;
  leftOn(roomTypeId: string, night: string): number;
  /** Fewest rooms left over the nights [checkIn, checkOut). */
  leastLeft(roomTypeId: string, checkIn: string, checkOut: string): number;
  /** Price fields of the room type under the plan; throws when the plan does not sell it. */
  priceOn(roomTypeId: string, ratePlanId: string, night: string): NightPrice;
  /** Restrictions for the room type under the plan (`null`: those applying to every plan). */
  restrictionsOn(roomTypeId: string, ratePlanId: string | null, night: string): NightRestrictions;
  /**
   * A dense window's arrays for one (room type, rate plan) over a stay inside it, each night worked
   * out once per window, when first asked (the in-memory store's view only; absent on a fresh
   * read): `null` when the stay is not inside the window. The same answers as `priceOn` and
   * `restrictionsOn` night by night.
   */
  stayNights?(roomTypeId: string, ratePlanId: string, checkIn: string, checkOut: string): StayNights | null;
}

/** One (room type, rate plan) over a stay's nights, by night index in a dense window (stay-nights.ts). */
export type StayNights = PairStayNights<NightRestrictions, NightPrice>;

const priceKey = (p: NightPrice) => `${p.base},${p.includedAdults},${p.extraAdult},${p.child}`;
const restrictionsKey = (r: NightRestrictions) => JSON.stringify(r);

/** An override's flag: `true` sets the rule on that night alone, `false` lifts the catalogue's. */
function flag(value: boolean | null, catalogue: RuleSource | null, night: string): RuleSource | null {
  if (value === null) return catalogue;
  return value ? { from: night, to: night, order: -1 } : null;
}

function limit(value: number | null, catalogue: StayLimit | null, night: string): StayLimit | null {
  return value === null ? catalogue : { from: night, to: night, order: -1, nights: value };
}

/**
 * Where the merged view reads what the database holds: a loaded `CalendarState`, or the process's
 * in-memory window of a hotel (`night-store.ts`). `leastLeft` may be answered by the source
 * directly (dense arrays); it must agree with `leftOn` night by night.
 */
export interface NightData {
  roomOverride(roomTypeId: string, night: string): RoomNightOverride | undefined;
  priceOverride(roomTypeId: string, ratePlanId: string, night: string): PriceNightOverride | undefined;
  inventory(roomTypeId: string, night: string): { total: number; sold: number } | undefined;
  leastLeft?(roomTypeId: string, checkIn: string, checkOut: string): number;
  /** A dense window of nights: its length, a night's index in it (−1 outside), the night at an index. */
  window?: { length: number; indexOf(night: string): number; night?(index: number): string };
}

function stateData(state: CalendarState): NightData {
  return {
    roomOverride: (roomTypeId, night) => state.rooms.get(roomNightKey(roomTypeId, night)),
    priceOverride: (roomTypeId, ratePlanId, night) =>
      state.prices.get(priceNightKey(roomTypeId, ratePlanId, night)),
    inventory: (roomTypeId, night) => state.inventory.get(roomNightKey(roomTypeId, night)),
  };
}

/** The sellable rooms left from the rooms in force, the inventory row's total and the rooms sold. */
export function roomsLeft(rooms: number, row: { total: number; sold: number } | undefined): number {
  // The inventory row is what a booking is checked against; it follows `rooms` for future nights.
  return Math.max(0, (row ? Math.min(rooms, row.total) : rooms) - (row?.sold ?? 0));
}

/**
 * The merged view over `state` (overrides and inventory as loaded; empty = the catalogue alone).
 * `remember`: a long-lived view (the in-memory store's, rebuilt whenever the catalogue or the
 * calendar changes) keeps each night's price and restrictions once worked out.
 */
export function hotelNights(
  hotel: Hotel,
  state: CalendarState | NightData = emptyCalendarState(),
  options: { remember?: boolean } = {},
): HotelNights {
  const data = 'rooms' in state ? stateData(state) : state;
  const roomTypes = new Map(hotel.roomTypes.map((r) => [r.id, r]));
  const plans = new Map(hotel.ratePlans.map((p) => [p.id, p]));
  const window = options.remember ? data.window : undefined;
  const prices = window ? new NightMemo<NightPrice>(window.length, priceKey) : null;
  const rules = window ? new NightMemo<NightRestrictions>(window.length, restrictionsKey) : null;
  const pairs = window ? new Map<string, Map<string, PairNights<NightRestrictions, NightPrice>>>() : null;

  const roomsOn = (roomTypeId: string, night: string) =>
    data.roomOverride(roomTypeId, night)?.rooms ?? roomTypes.get(roomTypeId)?.count ?? 0;
  const soldOn = (roomTypeId: string, night: string) => data.inventory(roomTypeId, night)?.sold ?? 0;
  const leftOn = (roomTypeId: string, night: string) =>
    roomsLeft(roomsOn(roomTypeId, night), data.inventory(roomTypeId, night));

  const priceOn = (roomTypeId: string, ratePlanId: string, night: string): NightPrice => {
    const roomType = roomTypes.get(roomTypeId);
    const plan = plans.get(ratePlanId);
    if (!roomType || !plan || !sellsRoomType(plan, roomTypeId))
      throw new Error(`Rate plan ${ratePlanId} does not price room type ${roomTypeId} in ${hotel.id}`);
    const price = cataloguePrice(plan, roomType, night);
    const override = data.priceOverride(roomTypeId, ratePlanId, night);
    return {
      base: override?.base ?? price.base,
      // Absent fields mean "no surcharge": every adult the room can hold is included.
      includedAdults: override?.includedAdults ?? price.includedAdults ?? roomType.maxAdults,
      extraAdult: override?.extraAdult ?? price.extraAdult ?? 0,
      child: override?.child ?? price.child ?? 0,
    };
  };

  const restrictionsOn = (
    roomTypeId: string,
    ratePlanId: string | null,
    night: string,
  ): NightRestrictions => {
    const catalogue = catalogueRestrictions(hotel.restrictions, roomTypeId, ratePlanId, night);
    const o = data.roomOverride(roomTypeId, night);
    if (!o) return catalogue;
    return {
      stopSell: flag(o.stopSell, catalogue.stopSell, night),
      closedToArrival: flag(o.closedToArrival, catalogue.closedToArrival, night),
      closedToDeparture: flag(o.closedToDeparture, catalogue.closedToDeparture, night),
      minStay: limit(o.minStay, catalogue.minStay, night),
      maxStay: limit(o.maxStay, catalogue.maxStay, night),
    };
  };

  const rememberedPrice =
    prices && window
      ? (roomTypeId: string, ratePlanId: string, night: string) =>
          prices.get(`${roomTypeId}\u0000${ratePlanId}`, window.indexOf(night), () =>
            priceOn(roomTypeId, ratePlanId, night),
          )
      : priceOn;
  const rememberedRestrictions =
    rules && window
      ? (roomTypeId: string, ratePlanId: string | null, night: string) =>
          rules.get(`${roomTypeId}\u0000${ratePlanId ?? ''}`, window.indexOf(night), () =>
            restrictionsOn(roomTypeId, ratePlanId, night),
          )
      : restrictionsOn;

  // The stay asked last: every pair of a search asks about the same one.
  let stay = { checkIn: '', checkOut: '', from: -1, to: -1 };
  const stayNights =
    pairs && window?.night
      ? (roomTypeId: string, ratePlanId: string, checkIn: string, checkOut: string): StayNights | null => {
          if (stay.checkIn !== checkIn || stay.checkOut !== checkOut) {
            stay = { checkIn, checkOut, from: window.indexOf(checkIn), to: window.indexOf(checkOut) };
          }
          const { from, to } = stay;
          if (from < 0 || to < from) return null;
          const byPlan = entryOf(pairs, roomTypeId, newMap);
          let pair = byPlan.get(ratePlanId);
          if (!pair) {
            const nightAt = window.night as (n: number) => string;
            pair = new PairNights(
              window.length,
              (n) => rememberedRestrictions(roomTypeId, ratePlanId, nightAt(n)),
              (n) => rememberedPrice(roomTypeId, ratePlanId, nightAt(n)),
            );
            byPlan.set(ratePlanId, pair);
          }
          return new PairStay(pair, from, to);
        }
      : undefined;

  return {
    hotel,
    roomsOn,
    soldOn,
    leftOn,
    leastLeft(roomTypeId, checkIn, checkOut) {
      if (data.leastLeft) return data.leastLeft(roomTypeId, checkIn, checkOut);
      const nights = eachNight(checkIn, checkOut);
      return nights.length === 0 ? 0 : Math.min(...nights.map((n) => leftOn(roomTypeId, n)));
    },
    priceOn: rememberedPrice,
    restrictionsOn: rememberedRestrictions,
    ...(stayNights ? { stayNights } : {}),
  };
}
