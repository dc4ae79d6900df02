import type { Executor } from '../infra/db/database.ts';

/** A balance claimed for charging by one process (migration 120). */
export interface ClaimedBalance {
  hotelId: string;
  reservationId: number;
  claim: string;
  attempts: number;
}

/**
 * The `balance_charges` table: the balances to charge to the card on file, one per reservation while
 * scheduled. Written in the transaction that schedules, moves or settles the balance.
 */
export const balanceChargesRepository = {
  /** Schedules (or moves) the reservation's balance charge to `dueAt`; a claim in flight is dropped. */
  async schedule(tx: Executor, hotelId: string, reservationId: number, dueAt: Date): Promise<void> {
    await tx.query(
      `INSERT INTO balance_charges (hotel_id, reservation_id, due_at) VALUES ($1, $2, $3)
       ON CONFLICT (hotel_id, reservation_id) DO UPDATE
       SET due_at = EXCLUDED.due_at, locked_until = NULL, claim = NULL, attempts = 0, last_error = NULL`,
      [hotelId, reservationId, dueAt],
    );
  },

  /** No balance to charge any more (paid, failed for good, cancelled, or no longer owed). */
  async drop(tx: Executor, hotelId: string, reservationId: number): Promise<void> {
    await tx.query('DELETE FROM balance_charges WHERE hotel_id = $1 AND reservation_id = $2', [
      hotelId,
      reservationId,
    ]);
  },

  /**
   * Claims up to `limit` balances due at `now` that no live claim holds (SKIP LOCKED: two processes
   * never claim one row; the lease: a claim of a process that died ends), for `leaseMs`.
   */
  async claimDue(
    ex: Executor,
    now: Date,
    limit: number,
    claim: string,
    leaseMs: number,
  ): Promise<ClaimedBalance[]> {
    // Hotel by hotel (the hotels with the longest-due balances first): a locking read stays inside
    // one hotel's rows, which on Citus is one shard (a locking read across shards is refused).
    const hotels = await ex.query<{ hotel_id: string }>(
      `SELECT hotel_id FROM balance_charges
        WHERE due_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
        GROUP BY hotel_id ORDER BY min(due_at) LIMIT $2`,
      [now, limit],
    );
    const claimed: ClaimedBalance[] = [];
    for (const { hotel_id: hotelId } of hotels.rows) {
      if (claimed.length >= limit) break;
      const { rows } = await ex.query<{
        hotel_id: string;
        reservation_id: string | number;
        claim: string;
        attempts: number;
      }>(
        `UPDATE balance_charges b SET claim = $3, locked_until = $4, attempts = b.attempts + 1
         FROM (SELECT hotel_id, reservation_id FROM balance_charges
               WHERE hotel_id = $5 AND due_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
               ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED) due
         WHERE b.hotel_id = $5 AND b.hotel_id = due.hotel_id AND b.reservation_id = due.reservation_id
         RETURNING b.hotel_id, b.reservation_id, b.claim, b.attempts`,
        [now, limit - claimed.length, claim, new Date(now.getTime() + leaseMs), hotelId],
      );
      claimed.push(
        ...rows.map((r) => ({
          hotelId: r.hotel_id,
          reservationId: Number(r.reservation_id),
          claim: r.claim,
          attempts: r.attempts,
        })),
      );
    }
    return claimed;
  },

  /** Whether `claim` still holds the row, locking it until the transaction ends. */
  async holds(tx: Executor, item: ClaimedBalance): Promise<boolean> {
    const { rows } = await tx.query(
      `SELECT 1 FROM balance_charges WHERE hotel_id = $1 AND reservation_id = $2 AND claim = $3 FOR UPDATE`,
      [item.hotelId, item.reservationId, item.claim],
    );
    return rows.length > 0;
  },

  /** A charge that could not be attempted (the provider unreachable): tried again at `retryAt`. */
  async postpone(ex: Executor, item: ClaimedBalance, retryAt: Date, error: string): Promise<void> {
    await ex.query(
      `UPDATE balance_charges SET locked_until = $4, claim = NULL, last_error = $5
       WHERE hotel_id = $1 AND reservation_id = $2 AND claim = $3`,
      [item.hotelId, item.reservationId, item.claim, retryAt, error.slice(0, 500)],
    );
  },
};
