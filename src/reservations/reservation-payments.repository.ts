import type { Executor } from '../infra/db/database.ts';
import { COLUMNS, oneReservation, type ReservationRow, type StoredStay } from './reservation.row.ts';

/**
 * The money columns of `reservations` (paid amount, payment status, the stay's payment schedule):
 * payments taken at booking, at check-in and refunds seen at the provider. Each names the hotel
 * as well as the id: on Citus, one shard. The rest of the table's SQL is reservation.repository.ts.
 */
export const reservationPaymentsRepository = {
  /**
   * Payment taken as part of creation, not a change: the version stays 1. By the hotel too: on
   * Citus one shard (by id alone it asked every shard, in the booking's transaction).
   */
  async markPaid(tx: Executor, r: { id: number; hotelId: string }, amount: number): Promise<ReservationRow> {
    const { rows } = await tx.query(
      `UPDATE reservations SET paid_amount = $2, payment_status = 'paid' WHERE hotel_id = $3 AND id = $1
       RETURNING ${COLUMNS}`,
      [r.id, amount, r.hotelId],
    );
    return oneReservation(rows);
  },

  /**
   * A deposit taken as part of creation (API.md 14.2), with the stay that now names the card on
   * file: `paid` once it covers the total, else still `unpaid` (what is left shows as `due`).
   */
  async markDepositPaid(
    tx: Executor,
    r: { id: number; hotelId: string },
    amount: number,
    stay: StoredStay,
  ): Promise<ReservationRow> {
    const { rows } = await tx.query(
      `UPDATE reservations SET paid_amount = $2, stay = $3,
         payment_status = CASE WHEN $2 >= total_amount THEN 'paid' ELSE 'unpaid' END
       WHERE hotel_id = $4 AND id = $1 RETURNING ${COLUMNS}`,
      [r.id, amount, JSON.stringify(stay), r.hotelId],
    );
    return oneReservation(rows);
  },

  /** The stay's bookkeeping written back (a deposit plan's schedule settled) with a payment already counted. */
  async replaceStay(
    tx: Executor,
    r: { id: number; hotelId: string },
    stay: StoredStay,
  ): Promise<ReservationRow> {
    const { rows } = await tx.query(
      `UPDATE reservations SET stay = $2 WHERE hotel_id = $3 AND id = $1 RETURNING ${COLUMNS}`,
      [r.id, JSON.stringify(stay), r.hotelId],
    );
    return oneReservation(rows);
  },

  /** A payment after creation (at check-in): the paid amount and the version move with it. */
  async addPayment(
    tx: Executor,
    r: { id: number; hotelId: string },
    amount: number,
    now: Date,
  ): Promise<ReservationRow> {
    // By its hotel too: on Citus, one shard.
    const { rows } = await tx.query(
      `UPDATE reservations
       SET paid_amount = paid_amount + $2,
           payment_status = CASE WHEN paid_amount + $2 >= total_amount THEN 'paid' ELSE payment_status END,
           version = version + 1, updated_at = $3
       WHERE hotel_id = $4 AND id = $1 RETURNING ${COLUMNS}`,
      [r.id, amount, now, r.hotelId],
    );
    return oneReservation(rows);
  },

  /** Money given back at the payment provider (a refund from Stripe's dashboard): paid goes down. */
  async refundedAtProvider(
    tx: Executor,
    r: { id: number; hotelId: string },
    amount: number,
    now: Date,
  ): Promise<ReservationRow> {
    const { rows } = await tx.query(
      `UPDATE reservations
       SET paid_amount = GREATEST(paid_amount - $2, 0),
           payment_status = CASE WHEN paid_amount - $2 <= 0 THEN 'refunded' ELSE 'partially_refunded' END,
           version = version + 1, updated_at = $3
       WHERE hotel_id = $4 AND id = $1 RETURNING ${COLUMNS}`,
      [r.id, amount, now, r.hotelId],
    );
    return oneReservation(rows);
  },
};
