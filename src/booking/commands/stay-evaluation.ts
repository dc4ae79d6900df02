import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { Promotion } from '../../catalog/promotion.schema.ts';
import { loadHotelNights } from '../../hotel-calendar/load-hotel-nights.ts';
import { evaluateStay, type StayEvaluation } from '../rules/availability.ts';
import type { StayInput } from '../rules/stay-validation.ts';
import type { BookingContext } from './command-context.ts';

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
  return evaluateStay(
    hotel,
    { ...stay, today, now },
    (roomTypeId) => nights.leastLeft(roomTypeId, stay.checkIn, stay.checkOut),
    only,
    nights,
  );
}
