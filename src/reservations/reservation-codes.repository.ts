import type { Executor } from '../infra/db/database.ts';

/**
 * The SQL of `reservation_codes` (migration 112): each confirmation code once across every hotel,
 * with the hotel it belongs to. `reservations` keys its codes by hotel (it is sharded by hotel), so
 * this table is what keeps a code unique across hotels: a guest's lookup by code finds one.
 */
export const reservationCodesRepository = {
  /**
   * Claims code `$1` for hotel `$2` (a code already taken is a 23505): the reservation's insert
   * runs it as a data-modifying CTE of its own statement, so both are written in one round trip.
   */
  INSERT_CODE: 'INSERT INTO reservation_codes (code, hotel_id) VALUES ($1, $2)',

  /** The hotel that holds `code`; null when none does. */
  async hotelOf(db: Executor, code: string): Promise<string | null> {
    const { rows } = await db.query<{ hotel_id: string }>(
      'SELECT hotel_id FROM reservation_codes WHERE code = $1',
      [code],
    );
    return rows[0]?.hotel_id ?? null;
  },
};
