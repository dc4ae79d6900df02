import type { Executor } from '../infra/db/database.ts';

/** A delivery claimed for one attempt, with what the attempt needs. */
export interface ClaimedDelivery {
  id: number;
  claim: string;
  attempt: number;
  endpointId: string;
  url: string;
  secretEncrypted: Uint8Array;
  event: { id: string; type: string; hotelId: string; data: Record<string, unknown>; createdAt: Date };
}

interface ClaimedRow {
  id: number;
  attempts: number;
  endpoint_public_id: string;
  url: string;
  secret_encrypted: Uint8Array;
  event_id: string;
  type: string;
  hotel_id: string;
  data: Record<string, unknown>;
  event_created_at: Date;
}

export interface AttemptRecord {
  attempt: number;
  eventId: string;
  attemptedAt: Date;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** One attempt of a claimed delivery and what came of it, to record. */
export interface AttemptOutcome extends AttemptRecord {
  id: number;
  claim: string;
  /** Null when delivered; else the delay before the next attempt. */
  retryAfterSeconds: number | null;
}

export const deliveryRepository = {
  /**
   * Claims up to `limit` due deliveries for one attempt each: SKIP LOCKED so concurrent workers
   * take different rows, and a lease (`locked_until`) so a worker that dies mid-attempt gives the
   * row back when the lease ends.
   */
  async claim(db: Executor, limit: number, claim: string, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    // Hotel by hotel (the hotels with the longest-due rows first): a locking read stays inside one
    // hotel's rows, which on Citus is one shard (a locking read across shards is refused).
    const hotels = await db.query<{ hotel_id: string }>(
      `SELECT hotel_id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until <= now())
        GROUP BY hotel_id ORDER BY min(next_attempt_at) LIMIT $1`,
      [limit],
    );
    const rows: ClaimedRow[] = [];
    for (const { hotel_id: hotelId } of hotels.rows) {
      if (rows.length >= limit) break;
      const claimed = await db.query<ClaimedRow>(
        `WITH due AS (
           SELECT id FROM webhook_deliveries
            WHERE hotel_id = $4 AND status = 'pending' AND next_attempt_at <= now()
              AND (locked_until IS NULL OR locked_until <= now())
            ORDER BY next_attempt_at
            LIMIT $1
            FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE webhook_deliveries d
              SET locked_until = now() + make_interval(secs => $3), claim = $2, attempts = d.attempts + 1
             FROM due WHERE d.hotel_id = $4 AND d.id = due.id
           RETURNING d.id, d.attempts, d.endpoint_id, d.hotel_id, d.event_position
         )
         SELECT c.id, c.attempts, w.public_id AS endpoint_public_id, w.url, w.secret_encrypted,
                e.public_id AS event_id, e.type, e.hotel_id, e.data, e.created_at AS event_created_at
           FROM claimed c
           JOIN webhook_endpoints w ON w.id = c.endpoint_id
           JOIN events e ON e.hotel_id = $4 AND e.position = c.event_position`,
        [limit - rows.length, claim, leaseSeconds, hotelId],
      );
      rows.push(...claimed.rows);
    }
    return rows.map((r) => ({
      id: Number(r.id),
      claim,
      attempt: r.attempts,
      endpointId: r.endpoint_public_id,
      url: r.url,
      secretEncrypted: r.secret_encrypted,
      event: {
        id: r.event_id,
        type: r.type,
        hotelId: r.hotel_id,
        data: r.data,
        createdAt: r.event_created_at,
      },
    }));
  },

  /**
   * Records attempts and their outcomes, in one statement for the whole batch, each only if its
   * claim still holds (a lease that ran out, or an endpoint deleted meanwhile, leaves it out).
   * `retryAfterSeconds` null = delivered; else the delivery is due again then, or `failed` when that
   * is past `giveUpAfterSeconds` from its creation. Answers the new status of each recorded one.
   */
  async record(
    db: Executor,
    outcomes: readonly AttemptOutcome[],
    giveUpAfterSeconds: number,
  ): Promise<Map<number, 'delivered' | 'pending' | 'failed'>> {
    const { rows } = await db.query<{ id: number; status: 'delivered' | 'pending' | 'failed' }>(
      `WITH r AS (
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[], $5::timestamptz[],
                              $6::int[], $7::text[], $8::int[], $9::float8[])
           AS r(id, claim, attempt, event_id, attempted_at, http_status, error, duration_ms, retry_after)
       ), done AS (
         UPDATE webhook_deliveries d
            SET locked_until = NULL, claim = NULL,
                status = CASE WHEN r.retry_after IS NULL THEN 'delivered'
                              WHEN now() + make_interval(secs => r.retry_after)
                                   > d.created_at + make_interval(secs => $10::float8) THEN 'failed'
                              ELSE 'pending' END,
                next_attempt_at = CASE WHEN r.retry_after IS NULL THEN d.next_attempt_at
                                       ELSE now() + make_interval(secs => r.retry_after) END,
                finished_at = CASE WHEN r.retry_after IS NULL
                                     OR now() + make_interval(secs => r.retry_after)
                                        > d.created_at + make_interval(secs => $10::float8)
                                   THEN now() END
           FROM r WHERE d.id = r.id AND d.claim = r.claim
         RETURNING d.id, d.status, d.endpoint_id
       ), logged AS (
         INSERT INTO webhook_attempts (endpoint_id, event_id, attempt, attempted_at, http_status, error, duration_ms)
         SELECT done.endpoint_id, r.event_id, r.attempt, r.attempted_at, r.http_status, r.error, r.duration_ms
           FROM done JOIN r ON r.id = done.id
          ORDER BY r.attempted_at, r.id
       )
       SELECT id, status FROM done`,
      [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.claim),
        outcomes.map((o) => o.attempt),
        outcomes.map((o) => o.eventId),
        outcomes.map((o) => o.attemptedAt.toISOString()),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.error),
        outcomes.map((o) => o.durationMs),
        outcomes.map((o) => o.retryAfterSeconds),
        giveUpAfterSeconds,
      ],
    );
    return new Map(rows.map((r) => [Number(r.id), r.status]));
  },

  /** Gives a claimed delivery back untried (shutdown): due at once, the attempt not counted. */
  async release(db: Executor, id: number, claim: string): Promise<void> {
    await db.query(
      `UPDATE webhook_deliveries SET locked_until = NULL, claim = NULL, attempts = attempts - 1
        WHERE id = $1 AND claim = $2`,
      [id, claim],
    );
  },

  /** Pending deliveries and the age of the oldest one (seconds), for /metrics. */
  async queueStats(db: Executor): Promise<{ pending: number; oldestAgeSeconds: number }> {
    const { rows } = await db.query<{ pending: number; oldest: number | null }>(
      `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS oldest
         FROM webhook_deliveries WHERE status = 'pending'`,
    );
    return { pending: rows[0]?.pending ?? 0, oldestAgeSeconds: rows[0]?.oldest ?? 0 };
  },

  /** An endpoint's most recent attempts, newest first. */
  async recentAttempts(db: Executor, endpointRowId: number, limit: number): Promise<AttemptRecord[]> {
    const { rows } = await db.query<{
      attempt: number;
      event_id: string;
      attempted_at: Date;
      http_status: number | null;
      error: string | null;
      duration_ms: number;
    }>(
      `SELECT attempt, event_id, attempted_at, http_status, error, duration_ms FROM webhook_attempts
        WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`,
      [endpointRowId, limit],
    );
    return rows.map((r) => ({
      attempt: r.attempt,
      eventId: r.event_id,
      attemptedAt: r.attempted_at,
      status: r.http_status,
      error: r.error,
      durationMs: r.duration_ms,
    }));
  },

  /** Attempts recorded before `before` (the event retention). */
  async deleteAttemptsOlderThan(db: Executor, before: Date): Promise<number> {
    const { rowCount } = await db.query('DELETE FROM webhook_attempts WHERE attempted_at < $1', [before]);
    return rowCount;
  },
};
