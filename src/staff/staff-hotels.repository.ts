import type { Executor } from '../infra/db/database.ts';

/** SQL of `staff_hotels`: the hotels a person may act for (none when the account has every hotel). */
export const staffHotelsRepository = {
  /** Replaces the account's hotels with `hotelIds` (null or [] = no rows). */
  async replace(db: Executor, staffId: number, hotelIds: readonly string[] | null): Promise<void> {
    // Two statements: an INSERT in the same statement as the DELETE (a data-modifying CTE) does not
    // see the delete, so keeping a hotel the person already had would break the primary key.
    await db.query('DELETE FROM staff_hotels WHERE staff_id = $1', [staffId]);
    await db.query(
      `INSERT INTO staff_hotels (hotel_id, staff_id) SELECT DISTINCT h, $1::bigint FROM unnest($2::text[]) AS h`,
      [staffId, hotelIds ?? []],
    );
  },
};
