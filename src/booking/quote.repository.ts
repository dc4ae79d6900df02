import type { Executor } from '../infra/db/database.ts';
import type { QuoteResponse } from './availability.schemas.ts';

export interface StoredQuote {
  body: QuoteResponse;
  expiresAt: Date;
  /** A reservation was made from it already. */
  used: boolean;
}

export const quoteRepository = {
  async insert(db: Executor, quote: QuoteResponse, expiresAt: Date): Promise<void> {
    await db.query('INSERT INTO quotes (id, hotel_id, body, expires_at) VALUES ($1, $2, $3, $4)', [
      quote.id,
      quote.hotelId,
      JSON.stringify(quote),
      expiresAt,
    ]);
  },

  /**
   * The quote with this id, among `hotelIds`' quotes when its id names them (one shard on Citus;
   * none: no such quote), else by the id alone (a quote made before ids carried their hotel).
   */
  async find(db: Executor, id: string, hotelIds: readonly string[] | null): Promise<StoredQuote | null> {
    if (hotelIds !== null && hotelIds.length === 0) return null;
    const where =
      hotelIds === null
        ? 'id = $1'
        : hotelIds.length === 1
          ? 'hotel_id = $2 AND id = $1'
          : 'hotel_id = ANY($2) AND id = $1';
    const params = hotelIds === null ? [id] : [id, hotelIds.length === 1 ? hotelIds[0] : hotelIds];
    // Whether it was used, in the same round trip. The subquery names the hotel by the parameter
    // when there is one: with only `r.hotel_id = q.hotel_id`, Citus asks every shard.
    const hotel = hotelIds?.length === 1 ? '$2' : 'q.hotel_id';
    const { rows } = await db.query<{ body: QuoteResponse; expires_at: Date; used: boolean }>(
      `SELECT body, expires_at, EXISTS (SELECT 1 FROM reservations r WHERE r.hotel_id = ${hotel} AND r.quote_id = q.id) AS used
       FROM quotes q WHERE ${where}`,
      params,
    );
    const row = rows[0];
    return row ? { body: row.body, expiresAt: row.expires_at, used: row.used } : null;
  },

  /** Quotes expired for a day that never became a reservation: nothing refers to them any more. */
  async deleteStale(db: Executor): Promise<number> {
    const { rowCount } = await db.query(
      `DELETE FROM quotes q WHERE q.expires_at < now() - interval '1 day'
         AND NOT EXISTS (SELECT 1 FROM reservations r WHERE r.hotel_id = q.hotel_id AND r.quote_id = q.id)`,
    );
    return rowCount;
  },
};
