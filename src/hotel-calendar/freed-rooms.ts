import type { Executor } from '../infra/db/database.ts';
import type { InventoryCell } from './night-store.ts';

/**
 * Rooms freed on nights where external holds found none (docs/api.md §9.1: an overbooking the hotel
 * must see) go to those holds at once, in the transaction that freed them: a cancellation, a
 * shorter stay, more rooms in the calendar or the catalogue. Otherwise the freed room would be for
 * sale again until the import's next fetch, and a second guest could book the room the other
 * channel's guest already has. The caller holds the inventory rows' locks (their one order), which
 * is also what guards `channel_nights`. Answers the rows changed, for the night store and the
 * notification of the caller's change.
 *
 * `nights`: the (room type, night) pairs that freed rooms; null for every night of the hotel from
 * `fromNight` on (a catalogue load).
 */
export async function giveFreedRoomsToHolds(
  tx: Executor,
  hotelId: string,
  nights: { roomTypeIds: readonly string[]; nights: readonly string[] } | { fromNight: string },
): Promise<InventoryCell[]> {
  const wholeHotel = 'fromNight' in nights;
  const { rows } = await tx.query<{ cells: InventoryCell[] | null }>(
    `WITH freed AS (
       SELECT c.room_type_id, c.night, least(c.holds - c.taken, i.total - i.sold) AS take
       FROM channel_nights c
       JOIN inventory i ON i.hotel_id = c.hotel_id AND i.room_type_id = c.room_type_id AND i.night = c.night
       ${
         wholeHotel
           ? 'WHERE c.hotel_id = $1 AND c.night >= $2::date'
           : `JOIN unnest($2::text[], $3::date[]) AS t(room_type_id, night)
                ON t.room_type_id = c.room_type_id AND t.night = c.night
              WHERE c.hotel_id = $1`
       }
         AND c.holds > c.taken AND i.total > i.sold
     ), held AS (
       UPDATE channel_nights c SET taken = c.taken + f.take FROM freed f
       WHERE c.hotel_id = $1 AND c.room_type_id = f.room_type_id AND c.night = f.night
       RETURNING c.night
     ), updated AS (
       UPDATE inventory i SET sold = i.sold + f.take, version = i.version + 1 FROM freed f
       WHERE i.hotel_id = $1 AND i.room_type_id = f.room_type_id AND i.night = f.night
       RETURNING i.room_type_id, i.night, i.total, i.sold, i.version
     )
     SELECT json_agg(json_build_array(room_type_id, night, total, sold, version)) AS cells FROM updated`,
    'fromNight' in nights ? [hotelId, nights.fromNight] : [hotelId, nights.roomTypeIds, nights.nights],
  );
  return rows[0]?.cells ?? [];
}
