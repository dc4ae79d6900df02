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
         updated_at = EXCLUDED.updated_at
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
