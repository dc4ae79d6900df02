import type { Database, Executor } from '../infra/db/database.ts';
import { groupedInserts } from '../infra/db/grouped-inserts.ts';
import type { QuoteResponse } from './availability.schemas.ts';

export interface StoredQuote {
  body: QuoteResponse;
  expiresAt: Date;
  /** A reservation was made from it already. */
  used: boolean;
}

/** Quotes of one hotel in one statement: multi-row VALUES, so Citus routes it to the hotel's shard. */
async function insertRows(db: Executor, hotelId: string, rows: NewQuote[]): Promise<void> {
  const values = rows.map((_, i) => `($${3 * i + 2}, $1, $${3 * i + 3}, $${3 * i + 4})`).join(', ');
  const params: unknown[] = [hotelId];
  for (const { quote, expiresAt } of rows) params.push(quote.id, JSON.stringify(quote), expiresAt);
  await db.query(`INSERT INTO quotes (id, hotel_id, body, expires_at) VALUES ${values}`, params);
}

interface NewQuote {
  quote: QuoteResponse;
  expiresAt: Date;
}

/** At most this many quotes a statement (and as many distinct statement texts prepared). */
const QUOTES_PER_STATEMENT = 32;
const groupedQuotes = groupedInserts<NewQuote>(insertRows, QUOTES_PER_STATEMENT);

export const quoteRepository = {
  /** A quote written in the caller's transaction. */
  async insert(tx: Executor, quote: QuoteResponse, expiresAt: Date): Promise<void> {
    await insertRows(tx, quote.hotelId, [{ quote, expiresAt }]);
  },

  /**
   * A quote written and committed on its own, with the other quotes of its hotel asked for at the
   * same moment (`groupedInserts`): one statement for many quotes under load.
   */
  async insertCommitted(db: Database, quote: QuoteResponse, expiresAt: Date): Promise<void> {
    await groupedQuotes(db, quote.hotelId, { quote, expiresAt });
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
