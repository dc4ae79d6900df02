import { eachNight } from '../dates/dates.ts';

/** A change of rooms held for one room type over a stay: positive takes rooms, negative releases. */
export interface InventoryChange {
  roomTypeId: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
}

/**
 * The one order every writer of inventory locks its rows in (room type, then night), so
 * concurrent bookings, holds and calendar changes cannot deadlock. Pure.
 */

/** Nets the changes per (room type, night) and sorts them, the lock order every transaction shares. */
export function perNight(changes: InventoryChange[]) {
  const deltas = new Map<string, { roomTypeId: string; night: string; delta: number }>();
  for (const change of changes) {
    for (const night of eachNight(change.checkIn, change.checkOut)) {
      const key = `${change.roomTypeId}\u0000${night}`;
      const entry = deltas.get(key) ?? { roomTypeId: change.roomTypeId, night, delta: 0 };
      entry.delta += change.rooms;
      deltas.set(key, entry);
    }
  }
  return [...deltas.values()]
    .filter((d) => d.delta !== 0)
    .sort((a, b) =>
      a.roomTypeId === b.roomTypeId ? (a.night < b.night ? -1 : 1) : a.roomTypeId < b.roomTypeId ? -1 : 1,
    );
}

/** Sorted (room type, night) pairs of every room type over every night. */
export function pairs(roomTypeIds: readonly string[], nights: readonly string[]) {
  const types = [...new Set(roomTypeIds)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sortedNights = [...new Set(nights)].sort();
  return {
    types: types.flatMap((t) => sortedNights.map(() => t)),
    nights: types.flatMap(() => sortedNights),
  };
}
