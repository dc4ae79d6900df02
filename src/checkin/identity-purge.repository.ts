import type { Executor } from '../infra/db/database.ts';

/**
 * The identity purge's data access (commands/purge-identity-data.ts): which identity steps are due
 * and their data deleted for good. Kept apart from checkin.repository.ts's session reads and step
 * writes, as a retention job's statements, though they touch `checkin_steps` too.
 */
export const identityPurgeRepository = {
  /**
   * Identity steps still holding data, of stays that checked out on or before `checkOutOnOrBefore`.
   * A read-only join with `reservations` (check-out date) and `hotels` (time zone, check-out time):
   * the batch is chosen and ordered by check-out in SQL, which no query of one table can do; it
   * writes nothing outside check-in's own tables.
   */
  async identityDataToPurge(db: Executor, checkOutOnOrBefore: string, limit: number) {
    const { rows } = await db.query<{
      session_id: number;
      check_out: string;
      timezone: string;
      check_out_time: string | null;
    }>(
      `SELECT st.session_id, r.check_out, h.definition->>'timezone' AS timezone,
              h.definition->>'checkOutTime' AS check_out_time
       FROM checkin_steps st
       JOIN checkin_sessions s ON s.hotel_id = st.hotel_id AND s.id = st.session_id
       JOIN reservations r ON r.hotel_id = s.hotel_id AND r.id = s.reservation_id
       JOIN hotels h ON h.id = r.hotel_id
       WHERE st.name = 'identity_document' AND st.purged_at IS NULL AND st.data IS NOT NULL
         AND r.check_out <= $1::date
       ORDER BY r.check_out, st.session_id
       LIMIT $2`,
      [checkOutOnOrBefore, limit],
    );
    return rows;
  },

  /**
   * Deletes identity data for good: the ciphertexts go, the step shows `{ purged: true }`. Answers
   * how many documents each hotel lost (only hotels that lost any).
   */
  async purgeIdentityData(
    tx: Executor,
    sessionIds: number[],
    now: Date,
  ): Promise<Array<{ hotelId: string; purged: number }>> {
    // A plain UPDATE … RETURNING, counted here: no data-modifying CTE (sharded engines limit them).
    const { rows } = await tx.query<{ hotel_id: string }>(
      `UPDATE checkin_steps SET data = '{"purged":true}'::jsonb, secret = NULL, attachment = NULL, purged_at = $2
       WHERE name = 'identity_document' AND session_id = ANY($1::bigint[]) AND purged_at IS NULL
       RETURNING hotel_id`,
      [sessionIds, now],
    );
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.hotel_id, (counts.get(r.hotel_id) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([hotelId, purged]) => ({ hotelId, purged }));
  },
};
