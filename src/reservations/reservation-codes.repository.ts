import type { Executor } from '../infra/db/database.ts';

/**
 * The SQL of `reservation_codes` (migration 112): each confirmation code once across every hotel,
 * with the hotel it belongs to. `reservations` keys its codes by hotel (it is sharded by hotel), so
 * this table is what keeps a code unique across hotels: a guest's lookup by code finds one.
 */
export const reservationCodesRepository = {
  /** Claims `code` for the hotel in the caller's transaction (a code already taken is a 23505). */
  async insert(tx: Executor, code: string, hotelId: string): Promise<void> {
    await tx.query('INSERT INTO reservation_codes (code, hotel_id) VALUES ($1, $2)', [code, hotelId]);
  },

  /** The hotel that holds `code`; null when none does. */
  async hotelOf(db: Executor, code: string): Promise<string | null> {
    const { rows } = await db.query<{ hotel_id: string }>(
      'SELECT hotel_id FROM reservation_codes WHERE code = $1',
      [code],
    );
    return rows[0]?.hotel_id ?? null;
  },
};
