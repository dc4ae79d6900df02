import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { Promotion } from '../../catalog/promotion.schema.ts';
import type { HotelNights } from '../../hotel-calendar/hotel-nights.ts';
import { loadHotelNights } from '../../hotel-calendar/load-hotel-nights.ts';
import { NightStore } from '../../hotel-calendar/night-store.ts';
import { evaluateStay, type StayEvaluation } from '../rules/availability.ts';
import type { StayInput } from '../rules/stay-validation.ts';
import type { BookingContext } from './command-context.ts';

/**
 * The stay as the rules take it: with the hotel's today and the moment asked. Object.assign, not a
 * spread: once per search or quote (docs/architecture.md, "Object spreads on hot paths").
 */
export function datedStay<T extends object>(
  stay: T,
  today: string,
  now: Date,
): T & { today: string; now: Date } {
  return Object.assign({}, stay, { today, now });
}

/**
 * Evaluates a stay against the hotel's nights as they stand now: the catalogue merged with the
 * calendar's overrides and the live inventory, read fresh (a change is seen by the next request).
 */
export async function evaluate(
  ctx: BookingContext,
  hotel: Hotel,
  stay: StayInput & { promotion?: Promotion | null },
  today: string,
  only?: { roomTypeId: string; ratePlanId: string },
  now: Date = ctx.clock.now(),
): Promise<StayEvaluation> {
  const roomTypeIds = only ? [only.roomTypeId] : hotel.roomTypes.map((r) => r.id);
  const nights = await loadHotelNights(ctx.db, hotel, stay.checkIn, stay.checkOut, roomTypeIds);
  return evaluateOn(nights, hotel, datedStay(stay, today, now), only);
}

/**
 * `evaluate`, for a quote: on the embedded engine from the process's in-memory view of the nights
 * (night-store.ts), which is exact there: this process makes every write and hands each to the
 * view when it commits, before its answer is sent, so a quote asked after any answered write sees
 * it, as a fresh read would (the view answers what a fresh read gives: search-reference.test.ts).
 * It saves the quote its read of the calendar (most of its database time). On PostgreSQL another
 * process's change reaches the view up to a second late: a quote there reads the database. A
 * stay outside the view's window reads the database too. `catalogHotel`: the catalogue's hotel
 * (the view's), `hotel` the one priced (with stored rate plans).
 */
export async function evaluateForQuote(
  ctx: BookingContext,
  hotel: Hotel,
  catalogHotel: Hotel,
  stay: StayInput & { promotion?: Promotion | null },
  today: string,
  only: { roomTypeId: string; ratePlanId: string },
  now: Date,
): Promise<StayEvaluation> {
  const nights =
    ctx.db.kind === 'embedded'
      ? await NightStore.of(ctx.db).nights(catalogHotel, today, stay.checkIn, stay.checkOut)
      : null;
  if (!nights) return evaluate(ctx, hotel, stay, today, only, now);
  return evaluateOn(nights, hotel, datedStay(stay, today, now), only);
}

/** The stay evaluated on `nights`, wherever they were read from: each room type's fewest rooms left. */
function evaluateOn(
  nights: HotelNights,
  hotel: Hotel,
  stay: Parameters<typeof evaluateStay>[1],
  only: { roomTypeId: string; ratePlanId: string } | undefined,
): StayEvaluation {
  return evaluateStay(
    hotel,
    stay,
    (roomTypeId) => nights.leastLeft(roomTypeId, stay.checkIn, stay.checkOut),
    only,
    nights,
  );
}
