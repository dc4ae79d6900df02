import type { Executor } from '../infra/db/database.ts';
import type { InventoryCell } from './night-store.ts';

/**
 * SQL of `channel_nights` (docs/api.md §9.1): per room type and night, the external holds counted
 * and how many of them took a room (`taken`, counted in the inventory row's `sold`); the rest are
 * overbookings the hotel must see. Guarded by the inventory rows' locks, taken by the callers.
 */
export const channelNightsRepository = {
  /** Nights from `today` whose holds do not all fit, with how many do not. */
  async overbooked(
    db: Executor,
    hotelId: string,
    roomTypeId: string,
    today: string,
  ): Promise<Array<{ night: string; conflicts: number }>> {
    const { rows } = await db.query<{ night: string; conflicts: number }>(
      `SELECT night::text, holds - taken AS conflicts FROM channel_nights
       WHERE hotel_id = $1 AND room_type_id = $2 AND night >= $3 AND holds > taken ORDER BY night`,
      [hotelId, roomTypeId, today],
    );
    return rows;
  },

  async conflictsOn(
    db: Executor,
    hotelId: string,
    roomTypeId: string,
    nights: readonly string[],
  ): Promise<Array<{ night: string; conflicts: number }>> {
    const { rows } = await db.query<{ night: string; conflicts: number }>(
      `SELECT night::text, holds - taken AS conflicts FROM channel_nights
       WHERE hotel_id = $1 AND room_type_id = $2 AND night = ANY($3::date[])`,
      [hotelId, roomTypeId, nights],
    );
    return rows;
  },

  /** Writes each night's holds and what they took; nights left without holds lose their row. */
  async saveNights(
    db: Executor,
    hotelId: string,
    roomTypeId: string,
    nights: ReadonlyArray<{ night: string; holds: number; taken: number }>,
  ): Promise<void> {
    await db.query(
      `INSERT INTO channel_nights (hotel_id, room_type_id, night, holds, taken)
       SELECT $1, $2, t.night, t.holds, t.taken
       FROM unnest($3::date[], $4::int[], $5::int[]) AS t(night, holds, taken)
       ON CONFLICT (hotel_id, room_type_id, night)
       DO UPDATE SET holds = excluded.holds, taken = excluded.taken`,
      [
        hotelId,
        roomTypeId,
        nights.map((n) => n.night),
        nights.map((n) => n.holds),
        nights.map((n) => n.taken),
      ],
    );
    await db.query(
      `DELETE FROM channel_nights
       WHERE hotel_id = $1 AND room_type_id = $2 AND night = ANY($3::date[]) AND holds = 0`,
      [hotelId, roomTypeId, nights.map((n) => n.night)],
    );
  },

  /** Per night of a range: external holds and the overbookings among them, for the calendar. */
  async channelNights(
    db: Executor,
    hotelId: string,
    from: string,
    to: string,
  ): Promise<Map<string, { holds: number; taken: number }>> {
    const { rows } = await db.query<{ room_type_id: string; night: string; holds: number; taken: number }>(
      `SELECT room_type_id, night::text, holds, taken FROM channel_nights
       WHERE hotel_id = $1 AND night BETWEEN $2 AND $3`,
      [hotelId, from, to],
    );
    return new Map(
      rows.map((r) => [`${r.room_type_id}\u0000${r.night}`, { holds: r.holds, taken: r.taken }]),
    );
  },

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
  async giveFreedRoomsToHolds(
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
  },
};
