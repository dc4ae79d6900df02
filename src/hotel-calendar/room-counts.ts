import type { Hotel } from '../catalog/catalog.schema.ts';
import { recordEvent } from '../events/record-event.ts';
import type { Database } from '../infra/db/database.ts';
import { type Audited, recordAudit } from '../operator-access/audit-trail.ts';
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
 * Cells written per statement. Each statement is set-based (arrays unnested), and on the embedded
 * engine the event loop turns between two of them, so a channel's largest message (50,000 room-type
 * nights, docs/api.md §9.2) keeps no other request waiting for long.
 */
const CELLS_PER_STATEMENT = 2_000;

type Cell = { roomTypeId: string; night: string; rooms?: number | null; stopSell: boolean | null };

/** One cell per (room type, night), a later count's fields over an earlier one's, sorted (the lock order). */
function cellsOf(counts: readonly RoomCount[]): Cell[] {
  const cells = new Map<string, Cell>();
  for (const count of counts) {
    for (const night of count.nights) {
      const key = `${count.roomTypeId}\u0000${night}`;
      const cell = cells.get(key) ?? { roomTypeId: count.roomTypeId, night, stopSell: null };
      if (count.rooms !== undefined) cell.rooms = count.rooms;
      if (count.stopSell !== undefined) cell.stopSell = count.stopSell;
      cells.set(key, cell);
    }
  }
  const before = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...cells.values()].sort((a, b) => before(a.roomTypeId, b.roomTypeId) || before(a.night, b.night));
}

function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CELLS_PER_STATEMENT) yield items.slice(i, i + CELLS_PER_STATEMENT);
}

/**
 * Sets rooms by night for a channel (AlpineBits FreeRooms, docs/api.md §9.2) exactly as a calendar
 * PATCH does (7.4), without its 366-night limit: under the hotel's calendar lock held exclusively,
 * in one transaction with its `calendar.updated` event; `reset` first hands every night from that
 * date back to the catalogue (a complete set replaces all that was sent before). The cells are
 * written and the inventory follows them set-based, a bounded number of statements whatever the
 * number of counts. A night left with fewer rooms than sold refuses the whole change: the nights
 * are answered and nothing is written.
 */
export async function setRoomCounts(
  ctx: { db: Database } & Audited,
  hotel: Hotel,
  change: { reset: string | null; counts: readonly RoomCount[] },
  event: Record<string, unknown>,
): Promise<RoomsBelowSold[]> {
  const refusal = new Error('rooms below sold');
  const cells = cellsOf(change.counts);
  let refused: RoomsBelowSold[] = [];
  try {
    await ctx.db.transaction(async (tx) => {
      refused = []; // a retried attempt starts again
      await holdCalendar(tx, hotel.id, 'exclusive');
      const touched = new Map<string, { roomTypeId: string; night: string }>();
      if (change.reset) {
        for (const r of await repo.clearRoomCountsFrom(tx, hotel.id, change.reset))
          touched.set(`${r.room_type_id}\u0000${r.night}`, { roomTypeId: r.room_type_id, night: r.night });
      }
      for (const withRooms of [true, false]) {
        const kind = cells.filter((c) => (c.rooms !== undefined) === withRooms);
        for (const part of chunks(kind)) {
          await repo.setRoomCells(tx, hotel.id, {
            roomTypeIds: part.map((c) => c.roomTypeId),
            nights: part.map((c) => c.night),
            stopSell: part.map((c) => c.stopSell),
            ...(withRooms ? { rooms: part.map((c) => c.rooms ?? null) } : {}),
          });
        }
      }
      for (const c of cells) touched.set(`${c.roomTypeId}\u0000${c.night}`, c);
      const all = cellsOf(
        [...touched.values()].map((c) => ({ roomTypeId: c.roomTypeId, nights: [c.night] })),
      );
      for (const part of chunks(all)) {
        const types = part.map((c) => c.roomTypeId);
        const nights = part.map((c) => c.night);
        refused.push(...(await inventoryRepository.followRoomCells(tx, hotel.id, types, nights)));
      }
      if (refused.length > 0) throw refusal;
      const nights = all.map((c) => c.night).sort();
      if (nights.length > 0)
        await repo.deleteCleared(tx, hotel.id, nights[0] as string, nights[nights.length - 1] as string);
      await announceCalendarChange(tx, hotel.id);
      await recordEvent(tx, { type: 'calendar.updated', hotelId: hotel.id, data: event });
      await recordAudit(tx, ctx.audit, {
        hotelIds: [hotel.id],
        action: 'calendar.updated',
        target: { type: 'calendar', id: hotel.id },
        details: {
          reset: change.reset,
          cells: all.length,
          from: nights[0] ?? null,
          to: nights[nights.length - 1] ?? null,
        },
      });
    });
  } catch (error) {
    if (error !== refusal) throw error;
    return refused;
  }
  return [];
}
