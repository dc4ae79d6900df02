import { eachNight, hotelToday, nightsBetween } from '../../dates/dates.ts';
import { loadHotelNights } from '../../hotel-calendar/load-hotel-nights.ts';
import { NightStore } from '../../hotel-calendar/night-store.ts';
import { AppError, validationProblem } from '../../infra/http/problems.ts';
import { pricedHotel } from '../../rate-plans/priced-hotel.ts';
import {
  MAX_CALENDAR_NIGHTS,
  type PriceCalendar,
  type PriceCalendarQuery,
} from '../price-calendar.schemas.ts';
import { nightOffer } from '../rules/night-offer.ts';
import type { BookingContext } from './command-context.ts';

/** The party of a calendar query: children's ages from `7,3` or the parameter repeated. */
function partyOf(query: PriceCalendarQuery) {
  const lists = query.children === undefined ? [] : [query.children].flat();
  const children = lists.flatMap((list) => list.split(',').map(Number));
  return { adults: query.adults, children, rooms: query.rooms };
}

/**
 * The price calendar (API.md 9.1): each night from `from` up to the night before `to`, answered
 * like search from the process's copy of the nights (`night-store.ts`, up to about a second late),
 * the database read only for nights beyond its window; priced by the same rules as search.
 */
export async function readPriceCalendar(
  ctx: BookingContext,
  hotelId: string,
  query: PriceCalendarQuery,
): Promise<PriceCalendar> {
  const catalogHotel = ctx.catalog.get(hotelId);
  if (!catalogHotel) throw new AppError('not_found', `There is no hotel "${hotelId}".`);
  const party = partyOf(query);
  if (query.to <= query.from) throw validationProblem([{ path: '/to', message: 'must be after from' }]);
  if (nightsBetween(query.from, query.to) > MAX_CALENDAR_NIGHTS)
    throw validationProblem([{ path: '/to', message: `at most ${MAX_CALENDAR_NIGHTS} nights from from` }]);
  if (party.children.length > 50)
    throw validationProblem([{ path: '/children', message: 'at most 50 children' }]);
  if (party.adults < party.rooms)
    throw validationProblem([
      { path: '/adults', message: 'must be at least rooms (every room needs an adult)' },
    ]);

  const hotel = await pricedHotel(ctx.db, catalogHotel, false);
  const today = hotelToday(hotel.timezone, ctx.clock.now());
  const nights =
    (await NightStore.of(ctx.db).nights(catalogHotel, today, query.from, query.to)) ??
    (await loadHotelNights(ctx.db, catalogHotel, query.from, query.to));
  return {
    data: eachNight(query.from, query.to).map((night) => {
      const offer = nightOffer(hotel, nights, night, party, today);
      return {
        ...offer,
        fromPrice: offer.fromPrice === null ? null : { amount: offer.fromPrice, currency: hotel.currency },
      };
    }),
  };
}
