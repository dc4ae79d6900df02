import { randomToken } from '../infra/crypto/tokens.ts';
import { type Executor, isTransaction } from '../infra/db/database.ts';
import type { NewEvent } from './event-types.ts';
import { deliveriesDue, WEBHOOK_CHANNEL } from './webhook-wake.ts';

/*
 * One statement: the event, one webhook delivery per endpoint it matches (an endpoint's patterns
 * are exact types or `prefix.*`; it receives the events raised since its creation), and, when
 * there is any, a notification that wakes the delivery workers of every process at commit. The
 * deliveries commit with the event or not at all, so no separate pass over the feed has to find
 * them; with no endpoint, the join finds nothing and nothing is notified.
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

/**
 * Writes an event into the outbox with the transaction `tx` of the change it records: both commit
 * or neither does. Call it inside the command's transaction, never after it.
 */
export async function recordEvent(tx: Executor, event: NewEvent): Promise<string> {
  const id = randomToken('evt_', 16);
  const { rows } = await tx.query<{ deliveries: number }>(INSERT, [
    id,
    event.type,
    event.hotelId,
    JSON.stringify(event.data),
    WEBHOOK_CHANNEL,
  ]);
  if ((rows[0]?.deliveries ?? 0) > 0 && isTransaction(tx)) {
    // This process's worker starts at once, without the notification's round trip (and on the
    // embedded engine, which has no notifications).
    const identity = tx.database.identity;
    tx.onEnd(async (committed) => {
      if (committed) deliveriesDue(identity);
    });
  }
  return id;
}
