import type { Executor } from '../infra/db/database.ts';

/**
 * The SQL of `reservation_codes` (migration 112): each confirmation code once across every hotel,
 * with the hotel it belongs to. `reservations` keys its codes by hotel (it is sharded by hotel), so
 * this table is what keeps a code unique across hotels: a guest's lookup by code finds one.
 */
/** Code → hotel as this process saw the directory hold it (a code's hotel never changes); dropped whole when full. */
const remembered = new Map<string, string>();
const REMEMBERED_LIMIT = 10_000;

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
    const hotelId = rows[0]?.hotel_id ?? null;
    if (hotelId !== null) reservationCodesRepository.remember(code, hotelId);
    return hotelId;
  },

  /**
   * The hotel this process last saw hold `code`, without a statement. It may be stale (a code of
   * another database of this process, a claim rolled back): a caller that finds nothing there
   * asks `hotelOf`.
   */
  rememberedHotelOf(code: string): string | undefined {
    return remembered.get(code);
  },

  remember(code: string, hotelId: string): void {
    if (remembered.size >= REMEMBERED_LIMIT) remembered.clear();
    remembered.set(code, hotelId);
  },
};
