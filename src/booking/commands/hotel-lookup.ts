import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { Executor } from '../../infra/db/database.ts';
import { pricedHotel } from '../../rate-plans/priced-hotel.ts';
import { unknownHotel } from '../rules/stay-validation.ts';
import type { BookingContext } from './command-context.ts';

/** The catalogue's hotel, or the `validation_error` of an unknown `hotelId`. */
export function hotelOrFail(ctx: Pick<BookingContext, 'catalog'>, hotelId: string): Hotel {
  const hotel = ctx.catalog.get(hotelId);
  if (!hotel) throw unknownHotel(hotelId);
  return hotel;
}

/** The hotel with the rate plans stored from RatePlans messages (docs/api.md §9.3); `fresh` reads the database. */
export async function pricedHotelOrFail(
  ctx: BookingContext,
  hotelId: string,
  fresh: boolean | Executor,
): Promise<Hotel> {
  return pricedHotel(ctx.db, hotelOrFail(ctx, hotelId), fresh);
}
