import { sellsRoomType } from '../rate-plans/priced-hotel.ts';
import type { CalendarView } from './calendar.schemas.ts';
import { nightsOf } from './calendar-update.ts';
import { standardOccupancyPrice } from './catalogue-night.ts';
import type { HotelNights } from './hotel-nights.ts';

/** External holds per `room type\u0000night` (docs/api.md §9.1): all of them, and those counted in `sold`. */
export type ChannelNights = Map<string, { holds: number; taken: number }>;

/**
 * The calendar of API.md 7.4 for `from`..`to` (inclusive): every room type, in catalogue order.
 * Holds of other channels are counted in the inventory's sold rooms; the calendar shows them apart
 * (`external`), with the overbookings among them (`conflicts`), and `sold` as Innkeep's own.
 */
export function calendarView(
  nights: HotelNights,
  from: string,
  to: string,
  channel: ChannelNights = new Map(),
): CalendarView {
  const { hotel } = nights;
  const dates = nightsOf(from, to);
  return {
    hotelId: hotel.id,
    from,
    to,
    roomTypes: hotel.roomTypes.map((roomType) => {
      const plans = hotel.ratePlans.filter((p) => sellsRoomType(p, roomType.id));
      return {
        id: roomType.id,
        nights: dates.map((date) => {
          const r = nights.restrictionsOn(roomType.id, null, date);
          const held = channel.get(`${roomType.id}\u0000${date}`);
          return {
            date,
            rooms: nights.roomsOn(roomType.id, date),
            sold: nights.soldOn(roomType.id, date) - (held?.taken ?? 0),
            left: nights.leftOn(roomType.id, date),
            external: held?.holds ?? 0,
            conflicts: held ? held.holds - held.taken : 0,
            restrictions: {
              stopSell: r.stopSell !== null,
              closedToArrival: r.closedToArrival !== null,
              closedToDeparture: r.closedToDeparture !== null,
              minStay: r.minStay?.nights ?? null,
              maxStay: r.maxStay?.nights ?? null,
            },
            prices: Object.fromEntries(
              plans.flatMap((p) => {
                // An occupancy-priced plan shows its standard-occupancy price; none on a night it has no rate for.
                const price = p.pricing
                  ? standardOccupancyPrice(p.pricing, roomType, date)
                  : nights.priceOn(roomType.id, p.id, date);
                return price ? [[p.id, price]] : [];
              }),
            ),
          };
        }),
      };
    }),
  };
}
