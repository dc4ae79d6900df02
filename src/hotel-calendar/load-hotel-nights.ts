import type { Hotel } from '../catalog/catalog.schema.ts';
import type { Executor, Transaction } from '../infra/db/database.ts';
import { calendarRepository as repo } from './calendar.repository.ts';
import { holdCalendar } from './calendar-lock.ts';
import { type HotelNights, hotelNights } from './hotel-nights.ts';

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
  tx: Transaction,
  hotel: Hotel,
  from: string,
  to: string,
  roomTypeIds: readonly string[],
): Promise<HotelNights> {
  await holdCalendar(tx, hotel.id, 'shared');
  return loadHotelNights(tx, hotel, from, to, roomTypeIds);
}
