import { hotelToday, nightsBetween } from '../../dates/dates.ts';
import { pricedHotel } from '../../rate-plans/priced-hotel.ts';
import type { SearchRequest } from '../availability.schemas.ts';
import { validateStay } from '../rules/stay-validation.ts';
import type { BookingContext } from './command-context.ts';
import { hotelOrFail } from './hotel-lookup.ts';

/** A search or quote body with its defaults: no children, one room, each service once. */
export function withDefaults<T extends { children?: number[]; rooms?: number; services?: string[] }>(req: T) {
  // Object.assign, not a spread: see docs/architecture.md, "Object spreads on hot paths".
  return Object.assign({}, req, {
    children: req.children ?? [],
    rooms: req.rooms ?? 1,
    services: [...new Set(req.services ?? [])],
  });
}

/** Defaults applied, hotel found, and the rules the schema cannot express checked. */
export async function prepareStay<T extends SearchRequest>(ctx: BookingContext, body: T, fresh: boolean) {
  const req = withDefaults(body);
  const catalogHotel = hotelOrFail(ctx, req.hotelId);
  const hotel = await pricedHotel(ctx.db, catalogHotel, fresh);
  const now = ctx.clock.now();
  const today = hotelToday(hotel.timezone, now);
  // Error paths point into the body as sent: services are checked before repeated ids merge.
  validateStay(hotel, { ...req, services: body.services ?? [] }, today);
  return { req, hotel, catalogHotel, now, today };
}

/** The stay as the client asked for it, echoed by search, quote and reservation alike. */
export function stayEcho(req: ReturnType<typeof withDefaults<SearchRequest>>) {
  const { checkIn, checkOut, adults, children, rooms, services } = req;
  return { checkIn, checkOut, nights: nightsBetween(checkIn, checkOut), adults, children, rooms, services };
}
