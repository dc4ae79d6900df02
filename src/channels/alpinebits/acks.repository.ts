import type { Executor } from '../../infra/db/database.ts';
import { COLUMNS, type ReservationRow, toReservationRow } from '../../reservations/reservation.row.ts';

/** Reservations sent in one OTA_ResRetrieveRS at most: the client acknowledges and reads again. */
const PAGE = 100;

/**
 * Who reads and acknowledges (API.md 11.2): the operator key (its public id) and the client id it
 * sent. Acknowledgements of one never hide a reservation from another, whatever client id it sends.
 */
export interface AckOwner {
  keyId: string;
  clientId: string;
}

/** SQL of `alpinebits_acks`: what each key and client id was sent and has acknowledged. */
export const acksRepository = {
  /**
   * The hotel's reservations this key and client have not acknowledged at their current version
   * (created, modified or cancelled since), oldest change first; `since` limits them to changes
   * from then. Each comes with the version acknowledged before (null: never), which tells a
   * modification from a new reservation.
   */
  async pending(
    db: Executor,
    owner: AckOwner,
    hotelId: string,
    since: Date | null,
  ): Promise<Array<{ row: ReservationRow; ackedVersion: number | null }>> {
    const { rows } = await db.query<Record<string, unknown> & { acked_version: number | null }>(
      `SELECT ${COLUMNS.split(',')
        .map((c) => `r.${c.trim()}`)
        .join(', ')}, a.acked_version
       FROM reservations r
       LEFT JOIN alpinebits_acks a
         ON a.hotel_id = r.hotel_id AND a.key_id = $1 AND a.client_id = $2 AND a.reservation_id = r.id
       WHERE r.hotel_id = $3 AND (a.acked_version IS NULL OR a.acked_version < r.version)
         AND ($4::timestamptz IS NULL OR r.updated_at >= $4)
       ORDER BY r.updated_at, r.id LIMIT ${PAGE}`,
      [owner.keyId, owner.clientId, hotelId, since],
    );
    return rows.map((r) => ({ row: toReservationRow(r), ackedVersion: r.acked_version }));
  },

  /** Records the versions sent to this key and client (what its acknowledgement will cover). */
  async sent(
    db: Executor,
    owner: AckOwner,
    hotelId: string,
    reservations: ReadonlyArray<{ id: number; version: number }>,
  ) {
    if (reservations.length === 0) return;
    await db.query(
      `INSERT INTO alpinebits_acks (hotel_id, key_id, client_id, reservation_id, sent_version)
       SELECT $1, $2, $3, t.id, t.version FROM unnest($4::bigint[], $5::int[]) AS t(id, version)
       ON CONFLICT (hotel_id, key_id, client_id, reservation_id)
       DO UPDATE SET sent_version = excluded.sent_version`,
      [
        hotelId,
        owner.keyId,
        owner.clientId,
        reservations.map((r) => r.id),
        reservations.map((r) => r.version),
      ],
    );
  },

  /**
   * Acknowledges reservations by code for this key and client, among `hotelIds` (null: all): each
   * at the version last sent to them (its current one when never sent). Answers the codes found.
   */
  async acknowledge(
    db: Executor,
    owner: AckOwner,
    codes: readonly string[],
    hotelIds: readonly string[] | null,
  ): Promise<string[]> {
    const { rows } = await db.query<{ code: string }>(
      `WITH found AS (
         SELECT r.id, r.hotel_id, r.code, r.version FROM reservations r
         WHERE r.code = ANY($3::text[]) AND ($4::text[] IS NULL OR r.hotel_id = ANY($4::text[]))
       ), acked AS (
         INSERT INTO alpinebits_acks
           (hotel_id, key_id, client_id, reservation_id, sent_version, acked_version, acknowledged_at)
         SELECT f.hotel_id, $1, $2, f.id, f.version, f.version, now() FROM found f
         ON CONFLICT (hotel_id, key_id, client_id, reservation_id) DO UPDATE
           SET acked_version = alpinebits_acks.sent_version, acknowledged_at = EXCLUDED.acknowledged_at
         RETURNING hotel_id, reservation_id
       ) SELECT f.code FROM found f JOIN acked a ON a.hotel_id = f.hotel_id AND a.reservation_id = f.id`,
      [owner.keyId, owner.clientId, codes, hotelIds],
    );
    return rows.map((r) => r.code);
  },
};
