import type { Executor } from '../infra/db/database.ts';
import { COLUMNS, oneReservation, type ReservationRow, type StoredStay } from './reservation.row.ts';

type Key = { id: number; hotelId: string };

/**
 * `UPDATE reservations SET <set>` of one reservation, answering the row as it is after: `$1` is
 * the id, `values` are `$2…`, and the hotel comes last (by the hotel too: on Citus, one shard; by
 * id alone it asked every shard, in the caller's transaction).
 */
async function updateOne(tx: Executor, r: Key, set: string, values: unknown[]): Promise<ReservationRow> {
  const { rows } = await tx.query(
    `UPDATE reservations SET ${set} WHERE hotel_id = $${values.length + 2} AND id = $1 RETURNING ${COLUMNS}`,
    [r.id, ...values, r.hotelId],
  );
  return oneReservation(rows);
}

/**
 * The money columns of `reservations` (paid amount, payment status, the stay's payment schedule):
 * payments taken at booking, at check-in and refunds seen at the provider. The rest of the
 * table's SQL is reservation.repository.ts.
 */
export const reservationPaymentsRepository = {
  /** Payment taken as part of creation, not a change: the version stays 1. */
  markPaid(tx: Executor, r: Key, amount: number): Promise<ReservationRow> {
    return updateOne(tx, r, `paid_amount = $2, payment_status = 'paid'`, [amount]);
  },

  /**
   * A deposit taken as part of creation (API.md 14.2), with the stay that now names the card on
   * file: `paid` once it covers the total, else still `unpaid` (what is left shows as `due`).
   */
  markDepositPaid(tx: Executor, r: Key, amount: number, stay: StoredStay): Promise<ReservationRow> {
    return updateOne(
      tx,
      r,
      `paid_amount = $2, stay = $3,
       payment_status = CASE WHEN $2 >= total_amount THEN 'paid' ELSE 'unpaid' END`,
      [amount, JSON.stringify(stay)],
    );
  },

  /** The stay's bookkeeping written back (a deposit plan's schedule settled) with a payment already counted. */
  replaceStay(tx: Executor, r: Key, stay: StoredStay): Promise<ReservationRow> {
    return updateOne(tx, r, 'stay = $2', [JSON.stringify(stay)]);
  },

  /** A payment after creation (at check-in): the paid amount and the version move with it. */
  addPayment(tx: Executor, r: Key, amount: number, now: Date): Promise<ReservationRow> {
    return updateOne(
      tx,
      r,
      `paid_amount = paid_amount + $2,
       payment_status = CASE WHEN paid_amount + $2 >= total_amount THEN 'paid' ELSE payment_status END,
       version = version + 1, updated_at = $3`,
      [amount, now],
    );
  },

  /** Money given back at the payment provider (a refund from Stripe's dashboard): paid goes down. */
  refundedAtProvider(tx: Executor, r: Key, amount: number, now: Date): Promise<ReservationRow> {
    return updateOne(
      tx,
      r,
      `paid_amount = GREATEST(paid_amount - $2, 0),
       payment_status = CASE WHEN paid_amount - $2 <= 0 THEN 'refunded' ELSE 'partially_refunded' END,
       version = version + 1, updated_at = $3`,
      [amount, now],
    );
  },
};
