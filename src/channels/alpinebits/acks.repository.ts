import type { Executor } from '../../infra/db/database.ts';
import { COLUMNS, type ReservationRow, toReservationRow } from '../../reservations/reservation.row.ts';

/** Reservations sent in one OTA_ResRetrieveRS at most: the client acknowledges and reads again. */
const PAGE = 100;

/** SQL of `alpinebits_acks`: what each AlpineBits client id was sent and has acknowledged. */
export const acksRepository = {
  /**
   * The hotel's reservations this client has not acknowledged at their current version (created,
   * modified or cancelled since), oldest change first; `since` limits them to changes from then.
   * Each comes with the version the client acknowledged before (null: never), which tells a
   * modification from a new reservation.
   */
  async pending(
    db: Executor,
    clientId: string,
    hotelId: string,
    since: Date | null,
  ): Promise<Array<{ row: ReservationRow; ackedVersion: number | null }>> {
    const { rows } = await db.query<Record<string, unknown> & { acked_version: number | null }>(
      `SELECT ${COLUMNS.split(',')
        .map((c) => `r.${c.trim()}`)
        .join(', ')}, a.acked_version
       FROM reservations r
       LEFT JOIN alpinebits_acks a ON a.reservation_id = r.id AND a.client_id = $1
       WHERE r.hotel_id = $2 AND (a.acked_version IS NULL OR a.acked_version < r.version)
         AND ($3::timestamptz IS NULL OR r.updated_at >= $3)
       ORDER BY r.updated_at, r.id LIMIT ${PAGE}`,
      [clientId, hotelId, since],
    );
    return rows.map((r) => ({ row: toReservationRow(r), ackedVersion: r.acked_version }));
  },

  /** Records the versions sent to the client (what its acknowledgement will cover). */
  async sent(db: Executor, clientId: string, reservations: ReadonlyArray<{ id: number; version: number }>) {
    if (reservations.length === 0) return;
    await db.query(
      `INSERT INTO alpinebits_acks (client_id, reservation_id, sent_version)
       SELECT $1, t.id, t.version FROM unnest($2::bigint[], $3::int[]) AS t(id, version)
       ON CONFLICT (client_id, reservation_id) DO UPDATE SET sent_version = excluded.sent_version`,
      [clientId, reservations.map((r) => r.id), reservations.map((r) => r.version)],
    );
  },

  /**
   * Acknowledges reservations by code for the client, among `hotelIds` (null: all): each at the
   * version last sent to it (its current one when never sent). Answers the codes found.
   */
  async acknowledge(
    db: Executor,
    clientId: string,
    codes: readonly string[],
    hotelIds: readonly string[] | null,
  ): Promise<string[]> {
    const { rows } = await db.query<{ code: string }>(
      `WITH found AS (
         SELECT r.id, r.code, r.version FROM reservations r
         WHERE r.code = ANY($2::text[]) AND ($3::text[] IS NULL OR r.hotel_id = ANY($3::text[]))
       ), acked AS (
         INSERT INTO alpinebits_acks (client_id, reservation_id, sent_version, acked_version, acknowledged_at)
         SELECT $1, f.id, f.version, f.version, now() FROM found f
         ON CONFLICT (client_id, reservation_id) DO UPDATE
           SET acked_version = alpinebits_acks.sent_version, acknowledged_at = now()
         RETURNING reservation_id
       ) SELECT f.code FROM found f JOIN acked a ON a.reservation_id = f.id`,
      [clientId, codes, hotelIds],
    );
    return rows.map((r) => r.code);
  },
};
