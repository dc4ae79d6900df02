import type { Executor } from '../infra/db/database.ts';

/*
 * One statement: the event, one webhook delivery per endpoint it matches (an endpoint's patterns
 * are exact types or `prefix.*`; it receives the events raised since its creation), and, when
 * there is any, a notification on `channel` that wakes the delivery workers of every process at
 * commit. The deliveries commit with the event or not at all, so no separate pass over the feed
 * has to find them; with no endpoint, the join finds nothing and nothing is notified.
 */
const INSERT = `
  WITH e AS (
    INSERT INTO events (public_id, type, hotel_id, data) VALUES ($1, $2, $3, $4)
    RETURNING position, type, hotel_id, created_at
  ), d AS (
    INSERT INTO webhook_deliveries (endpoint_id, event_position)
    SELECT w.id, e.position
      FROM e
      JOIN webhook_endpoints w
        ON (w.hotel_ids IS NULL OR e.hotel_id = ANY (w.hotel_ids))
       AND (e.type = ANY (w.events) OR split_part(e.type, '.', 1) || '.*' = ANY (w.events))
       AND e.created_at >= w.created_at
    RETURNING 1
  ), n AS (SELECT count(*)::int AS deliveries FROM d)
  SELECT deliveries, CASE WHEN deliveries > 0 THEN pg_notify($5, '') END AS notified FROM n`;

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
      channel,
    ]);
    return rows[0]?.deliveries ?? 0;
  },
};
