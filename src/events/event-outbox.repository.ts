import { type Executor, notifyAtCommit } from '../infra/db/database.ts';
import { carriedParts, type WritePart } from '../infra/db/write-part.ts';

/*
 * One statement: the event and one webhook delivery per endpoint it matches (an endpoint's patterns
 * are exact types or `prefix.*`; it receives the events raised since its creation); when there is
 * any, `channel` is notified with the COMMIT, which wakes the delivery workers of every process
 * (never inside this statement: on Citus a NOTIFY inside a statement routed to a shard cannot be
 * prepared for the two-phase commit). The deliveries commit with the event or not at all, so no separate pass over the feed
 * has to find them; with no endpoint, the join finds nothing and nothing is notified.
 */
const INSERT = `
  e AS (
    INSERT INTO events (public_id, type, hotel_id, data) VALUES ($1, $2, $3, $4)
    RETURNING position, type, hotel_id, created_at
  ), d AS (
    INSERT INTO webhook_deliveries (hotel_id, endpoint_id, event_position)
    SELECT e.hotel_id, w.id, e.position
      FROM e
      JOIN webhook_endpoints w
        ON (w.hotel_ids IS NULL OR e.hotel_id = ANY (w.hotel_ids))
       AND (e.type = ANY (w.events) OR split_part(e.type, '.', 1) || '.*' = ANY (w.events))
       AND e.created_at >= w.created_at
    RETURNING 1
  )
  SELECT count(*)::int AS deliveries FROM d`;

/** The `events` outbox and the `webhook_deliveries` each new event queues. */
export const eventOutboxRepository = {
  /**
   * Inserts the event and its deliveries, and `alongside` (writes of the same change, such as its
   * audit entry) in the same statement; answers how many deliveries it queued.
   */
  async insert(
    tx: Executor,
    event: { publicId: string; type: string; hotelId: string; data: unknown },
    channel: string,
    alongside: readonly WritePart[] = [],
  ): Promise<number> {
    const own = [event.publicId, event.type, event.hotelId, JSON.stringify(event.data)];
    const carried = carriedParts(alongside, own.length);
    const { rows } = await tx.query<{ deliveries: number }>(`WITH ${[...carried.ctes, INSERT].join(', ')}`, [
      ...own,
      ...carried.values,
    ]);
    const deliveries = rows[0]?.deliveries ?? 0;
    if (deliveries > 0) await notifyAtCommit(tx, channel, '');
    return deliveries;
  },
};
