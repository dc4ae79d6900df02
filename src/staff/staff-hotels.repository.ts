import type { Executor } from '../infra/db/database.ts';

/** SQL of `staff_hotels`: the hotels a person may act for (none when the account has every hotel). */
export const staffHotelsRepository = {
  /** Replaces the account's hotels with `hotelIds` (null or [] = no rows). */
  async replace(db: Executor, staffId: number, hotelIds: readonly string[] | null): Promise<void> {
    await db.query(
      `WITH gone AS (DELETE FROM staff_hotels WHERE staff_id = $1)
       INSERT INTO staff_hotels (hotel_id, staff_id) SELECT DISTINCT h, $1::bigint FROM unnest($2::text[]) AS h`,
      [staffId, hotelIds ?? []],
    );
  },
};
