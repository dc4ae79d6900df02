import type { Executor } from '../infra/db/database.ts';

/** The `invoice_series` table: one lock row per hotel and series (migration 110). */
export const invoiceSeriesRepository = {
  /**
   * Locks the series until the issuing transaction ends (the row made the first time): a second
   * issue of the series waits here before it reads the clock, so issue dates follow numbers.
   */
  async lock(tx: Executor, hotelId: string, series: string): Promise<void> {
    await tx.query(
      `INSERT INTO invoice_series (hotel_id, series) VALUES ($1, $2)
       ON CONFLICT (hotel_id, series) DO UPDATE SET series = invoice_series.series`,
      [hotelId, series],
    );
  },
};
