import type { Executor } from '../infra/db/database.ts';
import type { InventoryCell } from './night-store.ts';

/**
 * SQL of the external holds (`ical_holds`) and their per-night counts (`channel_nights`), docs/api.md
 * §9.1. Every statement is set-based (arrays through `unnest`), so a fetch of 10,000 events costs a
 * handful of statements, never one per event or per night.
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

export const externalHoldsRepository = {
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

  /** Moves `sold` by each night's delta (rows locked by the caller); answers the rows as they are now. */
  async moveSold(
    db: Executor,
    hotelId: string,
    roomTypeId: string,
    changes: ReadonlyArray<{ night: string; delta: number }>,
  ): Promise<InventoryCell[]> {
    const { rows } = await db.query<{ cells: InventoryCell[] | null }>(
      `WITH u AS (
         UPDATE inventory i SET sold = i.sold + t.delta, version = i.version + 1
         FROM unnest($3::date[], $4::int[]) AS t(night, delta)
         WHERE i.hotel_id = $1 AND i.room_type_id = $2 AND i.night = t.night
         RETURNING i.room_type_id, i.night, i.total, i.sold, i.version
       ) SELECT json_agg(json_build_array(room_type_id, night, total, sold, version)) AS cells FROM u`,
      [hotelId, roomTypeId, changes.map((c) => c.night), changes.map((c) => c.delta)],
    );
    return rows[0]?.cells ?? [];
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
  ): Promise<Array<{ room_type_id: string; night: string; holds: number; taken: number }>> {
    const { rows } = await db.query<{ room_type_id: string; night: string; holds: number; taken: number }>(
      `SELECT room_type_id, night::text, holds, taken FROM channel_nights
       WHERE hotel_id = $1 AND night BETWEEN $2 AND $3`,
      [hotelId, from, to],
    );
    return rows;
  },
};
