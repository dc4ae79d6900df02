import type { Executor } from '../infra/db/database.ts';
import { transactionNow } from '../infra/db/transaction-clock.ts';

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
  /** The delivery's hotel: its outcome is recorded in that hotel's rows (one shard on Citus). */
  hotelId: string;
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
   * Records attempts and their outcomes, a statement per hotel (on Citus one shard each) and one
   * for the attempt log, each only if its claim still holds (a lease that ran out, or an endpoint
   * deleted meanwhile, leaves it out). `retryAfterSeconds` null = delivered; else the delivery is
   * due again then, or `failed` when that is past `giveUpAfterSeconds` from its creation. Answers
   * the new status of each recorded one.
   */
  async record(
    tx: Executor,
    outcomes: readonly AttemptOutcome[],
    giveUpAfterSeconds: number,
  ): Promise<Map<number, 'delivered' | 'pending' | 'failed'>> {
    // When each retry would be due, from the transaction's clock: Citus refuses now() and
    // `timestamptz + interval` (not immutable) inside a CASE of a distributed UPDATE, so the
    // CASE compares only a parameter's distance from created_at (immutable arithmetic).
    const now = (await transactionNow(tx)).getTime();
    const dueAt = (o: AttemptOutcome) =>
      o.retryAfterSeconds === null ? null : new Date(now + o.retryAfterSeconds * 1000).toISOString();
    const statuses = new Map<number, 'delivered' | 'pending' | 'failed'>();
    const logged: { outcome: AttemptOutcome; endpointId: number }[] = [];
    const hotels = new Map<string, AttemptOutcome[]>();
    for (const o of outcomes) hotels.set(o.hotelId, [...(hotels.get(o.hotelId) ?? []), o]);
    for (const [hotelId, batch] of hotels) {
      const { rows } = await tx.query<{
        id: number;
        status: 'delivered' | 'pending' | 'failed';
        endpoint_id: number;
      }>(
        `UPDATE webhook_deliveries d
            SET locked_until = NULL, claim = NULL,
                status = CASE WHEN r.due_at IS NULL THEN 'delivered'
                              WHEN r.due_at - d.created_at > make_interval(secs => $5::float8) THEN 'failed'
                              ELSE 'pending' END,
                next_attempt_at = coalesce(r.due_at, d.next_attempt_at),
                finished_at = CASE WHEN r.due_at IS NULL
                                     OR r.due_at - d.created_at > make_interval(secs => $5::float8)
                                   THEN $4::timestamptz END
           FROM unnest($1::bigint[], $2::text[], $3::timestamptz[]) AS r(id, claim, due_at)
          WHERE d.hotel_id = $6 AND d.id = r.id AND d.claim = r.claim
         RETURNING d.id, d.status, d.endpoint_id`,
        [
          batch.map((o) => o.id),
          batch.map((o) => o.claim),
          batch.map(dueAt),
          new Date(now).toISOString(),
          giveUpAfterSeconds,
          hotelId,
        ],
      );
      for (const row of rows) {
        statuses.set(Number(row.id), row.status);
        const outcome = batch.find((o) => o.id === Number(row.id)) as AttemptOutcome;
        logged.push({ outcome, endpointId: Number(row.endpoint_id) });
      }
    }
    if (logged.length > 0) {
      logged.sort(
        (a, b) =>
          a.outcome.attemptedAt.getTime() - b.outcome.attemptedAt.getTime() || a.outcome.id - b.outcome.id,
      );
      await tx.query(
        `INSERT INTO webhook_attempts (endpoint_id, event_id, attempt, attempted_at, http_status, error, duration_ms)
         SELECT endpoint_id, event_id, attempt, attempted_at, http_status, error, duration_ms
           FROM unnest($1::bigint[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::text[], $7::int[])
                WITH ORDINALITY AS r(endpoint_id, event_id, attempt, attempted_at, http_status, error, duration_ms, n)
          ORDER BY n`,
        [
          logged.map((l) => l.endpointId),
          logged.map((l) => l.outcome.eventId),
          logged.map((l) => l.outcome.attempt),
          logged.map((l) => l.outcome.attemptedAt.toISOString()),
          logged.map((l) => l.outcome.status),
          logged.map((l) => l.outcome.error),
          logged.map((l) => l.outcome.durationMs),
        ],
      );
    }
    return statuses;
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
