import type { Executor } from '../infra/db/database.ts';

/*
 * One statement: the event and one webhook delivery per endpoint it matches (an endpoint's patterns
 * are exact types or `prefix.*`; it receives the events raised since its creation); when there is
 * any, a second statement notifies `channel`, which wakes the delivery workers of every process at
 * commit (its own statement: on Citus a NOTIFY inside a statement routed to a shard cannot be
 * prepared for the two-phase commit). The deliveries commit with the event or not at all, so no separate pass over the feed
 * has to find them; with no endpoint, the join finds nothing and nothing is notified.
 */
const INSERT = `
  WITH e AS (
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
  /** Inserts the event and its deliveries; answers how many deliveries it queued. */
  async insert(
    tx: Executor,
    event: { publicId: string; type: string; hotelId: string; data: unknown },
    channel: string,
  ): Promise<number> {
    const { rows } = await tx.query<{ deliveries: number }>(INSERT, [
      event.publicId,
      event.type,
      event.hotelId,
      JSON.stringify(event.data),
    ]);
    const deliveries = rows[0]?.deliveries ?? 0;
    if (deliveries > 0) await tx.query(`SELECT pg_notify($1, '')`, [channel]);
    return deliveries;
  },
};
