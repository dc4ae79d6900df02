import type { Executor } from '../infra/db/database.ts';

/** The `invoice_counters` table: the last number given per hotel, series and year. */
export const invoiceCountersRepository = {
  /**
   * The next number of the series and year, taken under the series lock (invoice-series). The upsert locks the counter row until the issuing
   * transaction ends: a concurrent issue waits and gets the next number; a rollback gives the
   * number back. So numbers are consecutive in commit order, never skipped, never twice.
   */
  async next(tx: Executor, hotelId: string, series: string, year: number): Promise<number> {
    const { rows } = await tx.query<{ last: number }>(
      `INSERT INTO invoice_counters (hotel_id, series, year, last) VALUES ($1, $2, $3, 1)
       ON CONFLICT (hotel_id, series, year) DO UPDATE SET last = invoice_counters.last + 1
       RETURNING last`,
      [hotelId, series, year],
    );
    return Number(rows[0]?.last);
  },
};
