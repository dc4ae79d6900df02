import type { Executor } from '../infra/db/database.ts';
import type { Hotel } from './catalog.schema.ts';

export interface StoredHotel {
  hotel: Hotel;
  revision: number;
}

/** Data access for the catalogue: hotel definitions and the room counts inventory is checked against. */
export const catalogRepository = {
  /** Inserts or updates a hotel; bumps its revision only when the definition really changed. */
  async upsertHotel(tx: Executor, hotel: Hotel): Promise<void> {
    await tx.query(
      `INSERT INTO hotels (id, definition) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET definition = EXCLUDED.definition, revision = hotels.revision + 1,
         updated_at = now()
       WHERE hotels.definition IS DISTINCT FROM EXCLUDED.definition`,
      [hotel.id, JSON.stringify(hotel)],
    );
  },

  async upsertRoomTypes(tx: Executor, hotel: Hotel): Promise<void> {
    const ids = hotel.roomTypes.map((r) => r.id);
    await tx.query(
      `INSERT INTO room_types (hotel_id, id, count, active)
       SELECT $1, id, count, true FROM unnest($2::text[], $3::int[]) AS t(id, count)
       ON CONFLICT (hotel_id, id) DO UPDATE SET count = EXCLUDED.count, active = true`,
      [hotel.id, ids, hotel.roomTypes.map((r) => r.count)],
    );
    await tx.query(
      'UPDATE room_types SET active = false WHERE hotel_id = $1 AND NOT (id = ANY($2::text[]))',
      [hotel.id, ids],
    );
  },

  /**
   * Nights from `fromNight` on where the new count would be below the rooms already sold. A night
   * the operator calendar gives its own rooms (`calendar_overrides.rooms`) is governed by that, not
   * by the count; a room type dropped from the file stops selling and keeps its sold nights.
   */
  async oversoldNights(tx: Executor, hotel: Hotel, fromNight: string) {
    const { rows } = await tx.query<{ room_type_id: string; night: string; sold: number; count: number }>(
      `SELECT i.room_type_id, i.night, i.sold, r.count
       FROM inventory i JOIN room_types r ON r.hotel_id = i.hotel_id AND r.id = i.room_type_id
       LEFT JOIN calendar_overrides o
         ON o.hotel_id = i.hotel_id AND o.room_type_id = i.room_type_id AND o.night = i.night
       WHERE i.hotel_id = $1 AND i.night >= $2 AND r.active AND o.rooms IS NULL AND i.sold > r.count
       ORDER BY i.room_type_id, i.night LIMIT 20`,
      [hotel.id, fromNight],
    );
    return rows;
  },

  /**
   * Totals follow the catalogue: the count, or the calendar's rooms where it names them. A removed
   * room type's nights keep only the rooms sold (nothing more sells; cancellations still release).
   * A changed row's `version` moves with it, as with every change of inventory (night-store.ts).
   */
  async syncInventoryTotals(tx: Executor, hotelId: string, fromNight: string): Promise<void> {
    const total = `CASE WHEN r.active THEN coalesce((SELECT o.rooms FROM calendar_overrides o
        WHERE o.hotel_id = i.hotel_id AND o.room_type_id = i.room_type_id AND o.night = i.night), r.count)
      ELSE least(i.total, i.sold) END`;
    await tx.query(
      `UPDATE inventory i SET total = ${total}, version = i.version + 1
       FROM room_types r
       WHERE r.hotel_id = i.hotel_id AND r.id = i.room_type_id AND i.hotel_id = $1 AND i.night >= $2
         AND i.total <> ${total}`,
      [hotelId, fromNight],
    );
  },

  async loadAll(db: Executor): Promise<StoredHotel[]> {
    const { rows } = await db.query<{ definition: Hotel; revision: number }>(
      'SELECT definition, revision FROM hotels ORDER BY id',
    );
    return rows.map((r) => ({ hotel: r.definition, revision: r.revision }));
  },

  /** A cheap fingerprint of the whole catalogue: changes whenever any hotel changes. */
  async fingerprint(db: Executor): Promise<string> {
    const { rows } = await db.query<{ f: string }>(
      `SELECT count(*)::text || ':' || coalesce(sum(revision), 0)::text AS f FROM hotels`,
    );
    return rows[0]?.f ?? '0:0';
  },
};
