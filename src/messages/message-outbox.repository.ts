import type { Executor } from '../infra/db/database.ts';
import { transactionNow } from '../infra/db/transaction-clock.ts';
import { MESSAGE_COLUMNS, type MessageRow, toMessageRow } from './messages.repository.ts';

/** A message claimed for one attempt. */
export interface ClaimedMessage extends MessageRow {
  claim: string;
}

/** How one attempt ended, to record. */
export interface MessageOutcome {
  id: number;
  /** The message's hotel ('' for a staff e-mail): its outcome is recorded in that hotel's rows. */
  hotelId: string;
  claim: string;
  /** `dropped`: an invitation no longer wanted (stay cancelled, check-in done): the row goes. */
  result: 'sent' | 'retry' | 'failed' | 'dropped';
  error: string | null;
  /** With `retry`: the delay before the next attempt. */
  retryAfterSeconds: number | null;
}

/**
 * The outbox side of `guest_messages` (the mail worker's, through infra/outbox/claim-worker.ts):
 * claiming due messages for an attempt, recording how attempts ended, giving one back. Queuing
 * them and reading them is messages.repository.ts.
 */
export const messageOutboxRepository = {
  /**
   * Claims up to `limit` due messages for one attempt each: SKIP LOCKED so concurrent workers take
   * different rows, and a lease so a worker that dies mid-attempt gives the row back.
   */
  async claim(db: Executor, limit: number, claim: string, leaseSeconds: number): Promise<ClaimedMessage[]> {
    // Hotel by hotel (staff e-mails are hotel ''), the longest-due first: a locking read stays
    // inside one hotel's rows, which on Citus is one shard (a locking read across shards is refused).
    const hotels = await db.query<{ hotel_id: string }>(
      `SELECT hotel_id FROM guest_messages
        WHERE status = 'queued' AND send_after <= now() AND (locked_until IS NULL OR locked_until <= now())
        GROUP BY hotel_id ORDER BY min(send_after) LIMIT $1`,
      [limit],
    );
    const rows: Record<string, unknown>[] = [];
    for (const { hotel_id: hotelId } of hotels.rows) {
      if (rows.length >= limit) break;
      const claimed = await db.query(
        `WITH due AS (
           SELECT id FROM guest_messages
            WHERE hotel_id = $4 AND status = 'queued' AND send_after <= now()
              AND (locked_until IS NULL OR locked_until <= now())
            ORDER BY send_after
            LIMIT $1
            FOR UPDATE SKIP LOCKED
         )
         UPDATE guest_messages m
            SET locked_until = now() + make_interval(secs => $3), claim = $2, attempts = m.attempts + 1
           FROM due WHERE m.hotel_id = $4 AND m.id = due.id
         RETURNING ${MESSAGE_COLUMNS.split(',')
           .map((c) => `m.${c.trim()}`)
           .join(', ')}`,
        [limit - rows.length, claim, leaseSeconds, hotelId],
      );
      rows.push(...claimed.rows);
    }
    return rows.map((r) => ({ ...toMessageRow(r), claim }));
  },

  /**
   * Records outcomes, a statement or two per hotel (on Citus one shard each), each only if its
   * claim still holds. A retry that would come after `giveUpAfterSeconds` from the message's
   * creation fails instead. Answers the messages that ended `failed`, for their `message.failed`
   * events.
   */
  async record(
    tx: Executor,
    outcomes: readonly MessageOutcome[],
    giveUpAfterSeconds: number,
  ): Promise<MessageRow[]> {
    // When each retry would be due, from the transaction's clock: Citus refuses now() and
    // `timestamptz + interval` (not immutable) inside a CASE of a distributed UPDATE, so the
    // CASE compares only a parameter's distance from created_at (immutable arithmetic).
    const now = (await transactionNow(tx)).getTime();
    const dueAt = (o: MessageOutcome) =>
      o.result === 'retry' && o.retryAfterSeconds !== null
        ? new Date(now + o.retryAfterSeconds * 1000).toISOString()
        : null;
    const hotels = new Map<string, MessageOutcome[]>();
    for (const o of outcomes) hotels.set(o.hotelId, [...(hotels.get(o.hotelId) ?? []), o]);
    const failed: MessageRow[] = [];
    for (const [hotelId, batch] of hotels) {
      const dropped = batch.filter((o) => o.result === 'dropped');
      if (dropped.length > 0) {
        await tx.query(
          `DELETE FROM guest_messages m USING unnest($1::bigint[], $2::text[]) AS r(id, claim)
            WHERE m.hotel_id = $3 AND m.id = r.id AND m.claim = r.claim`,
          [dropped.map((o) => o.id), dropped.map((o) => o.claim), hotelId],
        );
      }
      const kept = batch.filter((o) => o.result !== 'dropped');
      if (kept.length === 0) continue;
      const { rows } = await tx.query(
        `UPDATE guest_messages m
            SET locked_until = NULL, claim = NULL, last_error = r.error,
                status = CASE WHEN r.result = 'sent' THEN 'sent'
                              WHEN r.result = 'failed'
                                OR (r.result = 'retry'
                                    AND r.due_at - m.created_at > make_interval(secs => $7::float8)) THEN 'failed'
                              ELSE 'queued' END,
                sent_at = CASE WHEN r.result = 'sent' THEN $6::timestamptz END,
                send_after = CASE WHEN r.result = 'retry'
                                   AND r.due_at - m.created_at <= make_interval(secs => $7::float8)
                                  THEN r.due_at
                                  ELSE m.send_after END
           FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
                AS r(id, claim, result, error, due_at)
          WHERE m.hotel_id = $8 AND m.id = r.id AND m.claim = r.claim
         RETURNING ${MESSAGE_COLUMNS.split(',')
           .map((c) => `m.${c.trim()}`)
           .join(', ')}`,
        [
          kept.map((o) => o.id),
          kept.map((o) => o.claim),
          kept.map((o) => o.result),
          kept.map((o) => o.error),
          kept.map(dueAt),
          new Date(now).toISOString(),
          giveUpAfterSeconds,
          hotelId,
        ],
      );
      failed.push(...rows.map(toMessageRow).filter((m) => m.status === 'failed'));
    }
    return failed;
  },

  /** Gives a claimed message back untried (shutdown): due at once, the attempt not counted. */
  async release(db: Executor, id: number, claim: string): Promise<void> {
    await db.query(
      `UPDATE guest_messages SET locked_until = NULL, claim = NULL, attempts = attempts - 1
        WHERE id = $1 AND claim = $2`,
      [id, claim],
    );
  },
};
