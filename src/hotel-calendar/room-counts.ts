import type { Hotel } from '../catalog/catalog.schema.ts';
import { recordEvent } from '../events/record-event.ts';
import type { Database } from '../infra/db/database.ts';
import { calendarRepository as repo } from './calendar.repository.ts';
import { holdCalendar } from './calendar-lock.ts';
import { inventoryRepository, type RoomsBelowSold } from './inventory.repository.ts';
import { announceCalendarChange } from './night-store.ts';

/** Rooms (and stop-sell) of one room type over some nights, as a channel manager sends them. */
export interface RoomCount {
  roomTypeId: string;
  nights: readonly string[];
  /** The sellable rooms; `null` hands the nights back to the catalogue's count. */
  rooms?: number | null;
  stopSell?: boolean | null;
}

/**
 * Sets rooms by night for a channel (AlpineBits FreeRooms, API.md 11.2) exactly as a calendar
 * PATCH does (7.4), without its 366-night limit: under the hotel's calendar lock held exclusively,
 * in one transaction with its `calendar.updated` event; `reset` first hands every night from that
 * date back to the catalogue (a complete set replaces all that was sent before). A night left with
 * fewer rooms than sold refuses the whole change: the nights are answered and nothing is written.
 */
export async function setRoomCounts(
  db: Database,
  hotel: Hotel,
  change: { reset: string | null; counts: readonly RoomCount[] },
  event: Record<string, unknown>,
): Promise<RoomsBelowSold[]> {
  const refusal = new Error('rooms below sold');
  let refused: RoomsBelowSold[] = [];
  try {
    await db.transaction(async (tx) => {
      refused = []; // a retried attempt starts again
      await holdCalendar(tx, hotel.id, 'exclusive');
      const touched = new Map<string, Set<string>>();
      const touch = (roomTypeId: string, nights: readonly string[]) => {
        const set = touched.get(roomTypeId) ?? new Set<string>();
        for (const night of nights) set.add(night);
        touched.set(roomTypeId, set);
      };
      if (change.reset) {
        const { rows } = await tx.query<{ room_type_id: string; night: string }>(
          `UPDATE calendar_overrides SET rooms = NULL, stop_sell = NULL, updated_at = now()
           WHERE hotel_id = $1 AND night >= $2 AND (rooms IS NOT NULL OR stop_sell IS NOT NULL)
           RETURNING room_type_id, night::text`,
          [hotel.id, change.reset],
        );
        for (const r of rows) touch(r.room_type_id, [r.night]);
      }
      for (const count of change.counts) {
        const fields = {
          ...(count.rooms !== undefined ? { rooms: count.rooms } : {}),
          ...(count.stopSell !== undefined ? { stopSell: count.stopSell } : {}),
        };
        await repo.setRoomNights(tx, hotel.id, [count.roomTypeId], count.nights, fields);
        touch(count.roomTypeId, count.nights);
      }
      for (const [roomTypeId, nights] of [...touched].sort(([a], [b]) => (a < b ? -1 : 1))) {
        refused.push(...(await inventoryRepository.followRooms(tx, hotel.id, [roomTypeId], [...nights])));
      }
      if (refused.length > 0) throw refusal;
      const all = [...touched.values()].flatMap((s) => [...s]).sort();
      if (all.length > 0)
        await repo.deleteCleared(tx, hotel.id, all[0] as string, all[all.length - 1] as string);
      await announceCalendarChange(tx, hotel.id);
      await recordEvent(tx, { type: 'calendar.updated', hotelId: hotel.id, data: event });
    });
  } catch (error) {
    if (error !== refusal) throw error;
    return refused;
  }
  return [];
}
