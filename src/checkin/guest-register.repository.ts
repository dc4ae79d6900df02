import type { Executor } from '../infra/db/database.ts';

/**
 * One reservation of the guest register: a confirmed stay whose `guest_details` step is done, with
 * the accepted data of its guest steps. `companions` is null unless that step is completed;
 * `identity` is null unless the document step is completed, and `{ purged: true }` (with no
 * secret) after the identity purge.
 */
export interface RegisterReservationRow {
  code: string;
  check_in: string;
  check_out: string;
  session_id: number;
  guest_details: Record<string, unknown>;
  companions: { guests?: Array<Record<string, unknown>> } | null;
  identity: Record<string, unknown> | null;
  identity_secret: Uint8Array | null;
}

export const guestRegisterRepository = {
  /**
   * The hotel's confirmed reservations arriving on `date` whose guest details are given, by code.
   * A read-only join with `reservations` (code, dates, status): the register is one report over
   * both, chosen by arrival date in SQL; nothing here writes a reservation.
   */
  async arrivals(db: Executor, hotelId: string, date: string): Promise<RegisterReservationRow[]> {
    const { rows } = await db.query<RegisterReservationRow>(
      `SELECT r.code, r.check_in, r.check_out, s.id AS session_id,
              gd.data AS guest_details, co.data AS companions,
              id.data AS identity, id.secret AS identity_secret
       FROM reservations r
       JOIN checkin_sessions s ON s.hotel_id = r.hotel_id AND s.reservation_id = r.id
       JOIN checkin_steps gd ON gd.hotel_id = s.hotel_id AND gd.session_id = s.id AND gd.name = 'guest_details' AND gd.status = 'completed'
       LEFT JOIN checkin_steps co ON co.hotel_id = s.hotel_id AND co.session_id = s.id AND co.name = 'companions' AND co.status = 'completed'
       LEFT JOIN checkin_steps id ON id.hotel_id = s.hotel_id AND id.session_id = s.id AND id.name = 'identity_document' AND id.status = 'completed'
       WHERE r.hotel_id = $1 AND r.check_in = $2::date AND r.status = 'confirmed'
       ORDER BY r.code`,
      [hotelId, date],
    );
    return rows;
  },
};
