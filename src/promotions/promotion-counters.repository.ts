import type { Executor } from '../infra/db/database.ts';

/** The `promotion_counters` table: how many confirmed reservations hold each code. */
export const promotionCountersRepository = {
  /**
   * Takes one use of a code if fewer than `maxUses` are taken (no limit: null), in the caller's
   * transaction. The conditional UPDATE locks the counter row, so racing bookings on any process
   * queue on it and each sees the count the one before it left: exactly `maxUses` succeed.
   * Returns whether the use was taken.
   */
  async take(tx: Executor, hotelId: string, code: string, maxUses: number | null): Promise<boolean> {
    await tx.query(
      `INSERT INTO promotion_counters (hotel_id, code, uses) VALUES ($1, $2, 0)
       ON CONFLICT (hotel_id, code) DO NOTHING`,
      [hotelId, code],
    );
    const { rowCount } = await tx.query(
      `UPDATE promotion_counters SET uses = uses + 1
       WHERE hotel_id = $1 AND code = $2 AND ($3::integer IS NULL OR uses < $3::integer)`,
      [hotelId, code, maxUses],
    );
    return rowCount === 1;
  },

  /** Gives one use back (a cancellation, a change that drops the code). */
  async giveBack(tx: Executor, hotelId: string, code: string): Promise<void> {
    await tx.query(
      'UPDATE promotion_counters SET uses = uses - 1 WHERE hotel_id = $1 AND code = $2 AND uses > 0',
      [hotelId, code],
    );
  },

  async usesOf(db: Executor, hotelId: string, code: string): Promise<number> {
    const { rows } = await db.query<{ uses: number }>(
      'SELECT uses FROM promotion_counters WHERE hotel_id = $1 AND code = $2',
      [hotelId, code],
    );
    return rows[0]?.uses ?? 0;
  },

  async uses(db: Executor, hotelId: string): Promise<Map<string, number>> {
    const { rows } = await db.query<{ code: string; uses: number }>(
      'SELECT code, uses FROM promotion_counters WHERE hotel_id = $1',
      [hotelId],
    );
    return new Map(rows.map((r) => [r.code, r.uses]));
  },
};
