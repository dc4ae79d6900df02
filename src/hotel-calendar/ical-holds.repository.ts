import type { Executor } from '../infra/db/database.ts';

/**
 * SQL of the external holds (`ical_holds`, docs/api.md §9.1): one row per imported event. Every
 * statement is set-based (arrays through `unnest`), so a fetch of 10,000 events costs a handful of
 * statements, never one per event or per night.
 */

/** A stored hold: one room on each night [checkIn, checkOut). */
export interface StoredHold {
  uid: string;
  checkIn: string;
  checkOut: string;
  summary: string | null;
}

/** A night of the room type as the holds settle it: holds counted afresh, what they took before. */
export interface NightTally {
  night: string;
  holds: number;
  taken: number;
  total: number;
  sold: number;
}

export const icalHoldsRepository = {
  /** The import's holds. */
  async holdsOf(db: Executor, importId: string): Promise<StoredHold[]> {
    const { rows } = await db.query<{
      uid: string;
      check_in: string;
      check_out: string;
      summary: string | null;
    }>('SELECT uid, check_in::text, check_out::text, summary FROM ical_holds WHERE import_id = $1', [
      importId,
    ]);
    return rows.map((r) => ({ uid: r.uid, checkIn: r.check_in, checkOut: r.check_out, summary: r.summary }));
  },

  async deleteHolds(db: Executor, importId: string, uids: readonly string[]): Promise<void> {
    await db.query('DELETE FROM ical_holds WHERE import_id = $1 AND uid = ANY($2::text[])', [importId, uids]);
  },

  async insertHolds(
    db: Executor,
    target: { hotelId: string; roomTypeId: string; importId: string },
    stays: readonly StoredHold[],
  ): Promise<void> {
    await db.query(
      `INSERT INTO ical_holds (import_id, uid, hotel_id, room_type_id, check_in, check_out, summary)
       SELECT $1, t.uid, $2, $3, t.check_in, t.check_out, t.summary
       FROM unnest($4::text[], $5::date[], $6::date[], $7::text[]) AS t(uid, check_in, check_out, summary)`,
      [
        target.importId,
        target.hotelId,
        target.roomTypeId,
        stays.map((s) => s.uid),
        stays.map((s) => s.checkIn),
        stays.map((s) => s.checkOut),
        stays.map((s) => s.summary),
      ],
    );
  },

  /**
   * Each night's holds over every import of the room type, counted in one pass over the holds (a
   * sweep: +1 where a hold starts, −1 where it ends, summed in date order, then spread over the
   * nights of each step), beside the night's inventory row and what the holds took of it. The cost
   * grows with the holds and the nights, never with their product.
   */
  async tally(
    db: Executor,
    hotelId: string,
    roomTypeId: string,
    nights: readonly string[],
    today: string,
  ): Promise<NightTally[]> {
    const { rows } = await db.query<NightTally>(
      `WITH edges AS (
         SELECT greatest(check_in, $3::date) AS d, 1 AS v FROM ical_holds
         WHERE hotel_id = $1 AND room_type_id = $2 AND check_out > $3::date
         UNION ALL
         SELECT check_out, -1 FROM ical_holds
         WHERE hotel_id = $1 AND room_type_id = $2 AND check_out > $3::date
       ), steps AS (
         SELECT d, sum(v) OVER (ORDER BY d) AS level, lead(d) OVER (ORDER BY d) AS next
         FROM (SELECT d, sum(v) AS v FROM edges GROUP BY d) s
       ), held AS (
         SELECT s.d + k AS night, s.level FROM steps s, generate_series(0, s.next - s.d - 1) AS k
         WHERE s.next IS NOT NULL AND s.level > 0
       )
       SELECT t.night::text AS night, coalesce(h.level, 0)::int AS holds,
         coalesce(c.taken, 0) AS taken, i.total, i.sold
       FROM unnest($4::date[]) AS t(night)
       JOIN inventory i ON i.hotel_id = $1 AND i.room_type_id = $2 AND i.night = t.night
       LEFT JOIN held h ON h.night = t.night
       LEFT JOIN channel_nights c ON c.hotel_id = $1 AND c.room_type_id = $2 AND c.night = t.night
       ORDER BY t.night`,
      [hotelId, roomTypeId, today, nights],
    );
    return rows;
  },
};
