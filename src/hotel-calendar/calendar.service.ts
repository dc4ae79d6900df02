import type { Hotel } from '../catalog/catalog.schema.ts';
import { recordEvent } from '../events/record-event.ts';
import { type Database, type Executor, finishWrite, type WriteOptions } from '../infra/db/database.ts';
import { AppError, validationProblem } from '../infra/http/problems.ts';
import { calendarRepository as repo } from './calendar.repository.ts';
import type { CalendarPatch, CalendarView } from './calendar.schemas.ts';
import { holdCalendar } from './calendar-lock.ts';
import { nightsOf, planCalendarPatch, rangeErrors } from './calendar-update.ts';
import { channelNights } from './external-holds.ts';
import { type HotelNights, hotelNights, sellsRoomType } from './hotel-nights.ts';
import { inventoryRepository, type RoomsBelowSold } from './inventory.repository.ts';
import { announceCalendarChange } from './night-store.ts';

/**
 * The merged view (catalogue + calendar) of the nights `from`..`to` inclusive, read fresh from the
 * database: a stay needs its nights and its departure day (closed to departure), so pass
 * check-out as `to`. Inside a transaction pass `tx` to read what it holds and locks.
 */
export async function loadHotelNights(
  db: Executor,
  hotel: Hotel,
  from: string,
  to: string,
  roomTypeIds: readonly string[] = hotel.roomTypes.map((r) => r.id),
): Promise<HotelNights> {
  return hotelNights(hotel, await repo.loadState(db, hotel.id, from, to, roomTypeIds));
}

/**
 * The same nights for a write that depends on them (a booking, a change of a stay): read under the
 * hotel's calendar lock, held shared until the transaction ends, so no calendar PATCH commits
 * between this read and the write's commit (calendar-lock.ts).
 */
export async function loadHotelNightsForWrite(
  tx: Executor,
  hotel: Hotel,
  from: string,
  to: string,
  roomTypeIds: readonly string[],
): Promise<HotelNights> {
  await holdCalendar(tx, hotel.id, 'shared');
  return loadHotelNights(tx, hotel, from, to, roomTypeIds);
}

/** External holds per `room type\u0000night` (API.md 11.1): all of them, and those counted in `sold`. */
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
            prices: Object.fromEntries(plans.map((p) => [p.id, nights.priceOn(roomType.id, p.id, date)])),
          };
        }),
      };
    }),
  };
}

/** `GET …/calendar`: `400` for a range that is reversed or longer than 366 nights. */
export async function readCalendar(db: Executor, hotel: Hotel, from: string, to: string) {
  const errors = rangeErrors(from, to, '/query/to');
  if (errors.length > 0) throw validationProblem(errors);
  const [nights, channel] = await Promise.all([
    loadHotelNights(db, hotel, from, to),
    channelNights(db, hotel.id, from, to),
  ]);
  return calendarView(nights, from, to, channel);
}

function roomsBelowSoldError(hotel: Hotel, refused: RoomsBelowSold[]): AppError {
  const byType = new Map<string, RoomsBelowSold[]>();
  for (const r of refused) byType.set(r.roomTypeId, [...(byType.get(r.roomTypeId) ?? []), r]);
  const name = (id: string) => hotel.roomTypes.find((r) => r.id === id)?.name ?? id;
  const errors = [...byType].map(([roomTypeId, nights]) => ({
    roomTypeId,
    reason: 'rooms_below_sold',
    message: `${name(roomTypeId)}: more rooms are already sold than the rooms asked for on ${nights
      .map((n) => `${n.night} (${n.sold} sold, ${n.rooms} asked)`)
      .join(', ')}.`,
    dates: nights.map((n) => n.night),
  }));
  const first = refused[0] as RoomsBelowSold;
  return new AppError(
    'no_availability',
    `${name(first.roomTypeId)} has ${first.sold} rooms sold on ${first.night}: rooms cannot go below that.`,
    { errors },
  );
}

/**
 * `PATCH …/calendar` (API.md 7.4): every update in one transaction, or none. Rooms are brought
 * into the inventory under its locks; a night left with fewer rooms than sold refuses the whole
 * PATCH (`409 no_availability`). The change is recorded as a `calendar.updated` event with it.
 */
export async function updateCalendar(
  db: Database,
  hotel: Hotel,
  body: CalendarPatch,
  options: WriteOptions<CalendarView> = {},
): Promise<CalendarView> {
  const planned = planCalendarPatch(hotel, body);
  const from = body.updates.reduce((a, u) => (u.from < a ? u.from : a), body.updates[0]?.from as string);
  const to = body.updates.reduce((a, u) => (u.to > a ? u.to : a), body.updates[0]?.to as string);
  return db.transaction(async (tx) => {
    await holdCalendar(tx, hotel.id, 'exclusive');
    const roomNights = new Map<string, Set<string>>();
    for (const update of planned) {
      await repo.setRoomNights(tx, hotel.id, update.roomTypeIds, update.nights, update.room);
      await repo.setPriceNights(tx, hotel.id, update.plans, update.nights, update.price);
      if (update.room.rooms === undefined) continue;
      for (const roomTypeId of update.roomTypeIds) {
        const nights = roomNights.get(roomTypeId) ?? new Set();
        for (const night of update.nights) nights.add(night);
        roomNights.set(roomTypeId, nights);
      }
    }
    const refused: RoomsBelowSold[] = [];
    for (const [roomTypeId, nights] of [...roomNights].sort(([a], [b]) => (a < b ? -1 : 1))) {
      refused.push(...(await inventoryRepository.followRooms(tx, hotel.id, [roomTypeId], [...nights])));
    }
    if (refused.length > 0) throw roomsBelowSoldError(hotel, refused);
    await repo.deleteCleared(tx, hotel.id, from, to);
    await announceCalendarChange(tx, hotel.id);
    await recordEvent(tx, { type: 'calendar.updated', hotelId: hotel.id, data: body });
    const channel = await channelNights(tx, hotel.id, from, to);
    const view = calendarView(await loadHotelNights(tx, hotel, from, to), from, to, channel);
    return finishWrite(tx, view, options);
  });
}
