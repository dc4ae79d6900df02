import type { Executor } from '../infra/db/database.ts';
import { type FeedPosition, feedRepository } from './feed.repository.ts';

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

export const deliveryRepository = {
  /**
   * Turns published events after the fan-out cursor into one delivery per matching endpoint, and
   * moves the cursor. One process at a time (the cursor row is taken with SKIP LOCKED: another
   * process fanning out makes this a no-op). Answers how many events were read.
   */
  async fanOut(tx: Executor, batch: number): Promise<number> {
    const { rows } = await tx.query<{ last_xid: string | null; last_position: number | null }>(
      'SELECT last_xid::text AS last_xid, last_position FROM webhook_fanout FOR UPDATE SKIP LOCKED',
    );
    const cursor = rows[0];
    if (!cursor) return 0;
    const after: FeedPosition | null =
      cursor.last_xid === null ? null : { xid: cursor.last_xid, position: Number(cursor.last_position) };
    const events = await feedRepository.page(tx, { after, hotelIds: null, types: null, limit: batch });
    const last = events.at(-1);
    if (!last) return 0;
    // An endpoint's patterns are exact types or `prefix.*`; it receives the events raised since its
    // creation (not a backlog the fan-out had not reached yet when it was created).
    await tx.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_position)
       SELECT w.id, e.position
         FROM events e
         JOIN webhook_endpoints w
           ON (w.hotel_ids IS NULL OR e.hotel_id = ANY (w.hotel_ids))
          AND (e.type = ANY (w.events) OR split_part(e.type, '.', 1) || '.*' = ANY (w.events))
          AND e.created_at >= w.created_at
        WHERE e.position = ANY ($1::bigint[])
       ON CONFLICT (endpoint_id, event_position) DO NOTHING`,
      [events.map((e) => e.at.position)],
    );
    await tx.query('UPDATE webhook_fanout SET last_xid = $1::text::xid8, last_position = $2', [
      last.at.xid,
      last.at.position,
    ]);
    return events.length;
  },

  /**
   * Claims up to `limit` due deliveries for one attempt each: SKIP LOCKED so concurrent workers
   * take different rows, and a lease (`locked_until`) so a worker that dies mid-attempt gives the
   * row back when the lease ends.
   */
  async claim(db: Executor, limit: number, claim: string, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    const { rows } = await db.query<ClaimedRow>(
      `WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE status = 'pending' AND next_attempt_at <= now()
            AND (locked_until IS NULL OR locked_until <= now())
          ORDER BY next_attempt_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE webhook_deliveries d
            SET locked_until = now() + make_interval(secs => $3), claim = $2, attempts = d.attempts + 1
           FROM due WHERE d.id = due.id
         RETURNING d.id, d.attempts, d.endpoint_id, d.event_position
       )
       SELECT c.id, c.attempts, w.public_id AS endpoint_public_id, w.url, w.secret_encrypted,
              e.public_id AS event_id, e.type, e.hotel_id, e.data, e.created_at AS event_created_at
         FROM claimed c
         JOIN webhook_endpoints w ON w.id = c.endpoint_id
         JOIN events e ON e.position = c.event_position`,
      [limit, claim, leaseSeconds],
    );
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
   * Records an attempt and its outcome, if the claim still holds (a lease that ran out, or an
   * endpoint deleted meanwhile, makes this a no-op). `retryAfterSeconds` null = delivered; else the
   * delivery is due again then, or `failed` when that is past `giveUpAfterSeconds` from its creation.
   * Answers the new status, or null when the claim was lost.
   */
  async finish(
    tx: Executor,
    d: { id: number; claim: string; attempt: number; eventId: string },
    result: { attemptedAt: Date; status: number | null; error: string | null; durationMs: number },
    retryAfterSeconds: number | null,
    giveUpAfterSeconds: number,
  ): Promise<'delivered' | 'pending' | 'failed' | null> {
    const { rows } = await tx.query<{ status: 'delivered' | 'pending' | 'failed'; endpoint_id: number }>(
      `UPDATE webhook_deliveries
          SET locked_until = NULL, claim = NULL,
              status = CASE WHEN $3::float8 IS NULL THEN 'delivered'
                            WHEN now() + make_interval(secs => $3) > created_at + make_interval(secs => $4) THEN 'failed'
                            ELSE 'pending' END,
              next_attempt_at = CASE WHEN $3::float8 IS NULL THEN next_attempt_at
                                     ELSE now() + make_interval(secs => $3) END,
              finished_at = CASE WHEN $3::float8 IS NULL
                                   OR now() + make_interval(secs => $3) > created_at + make_interval(secs => $4)
                                 THEN now() END
        WHERE id = $1 AND claim = $2
        RETURNING status, endpoint_id`,
      [d.id, d.claim, retryAfterSeconds, giveUpAfterSeconds],
    );
    const row = rows[0];
    if (!row) return null;
    await tx.query(
      `INSERT INTO webhook_attempts (endpoint_id, event_id, attempt, attempted_at, http_status, error, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        row.endpoint_id,
        d.eventId,
        d.attempt,
        result.attemptedAt,
        result.status,
        result.error,
        result.durationMs,
      ],
    );
    return row.status;
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
