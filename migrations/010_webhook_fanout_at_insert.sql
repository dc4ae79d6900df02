-- Webhook deliveries are now made with their event, by the statement that inserts it
-- (src/events/record-event.ts), instead of a later pass over the feed behind the `webhook_fanout`
-- cursor. What that pass had not reached yet is fanned out here, and the cursor goes.
INSERT INTO webhook_deliveries (endpoint_id, event_position)
SELECT w.id, e.position
  FROM events e
  JOIN webhook_endpoints w
    ON (w.hotel_ids IS NULL OR e.hotel_id = ANY (w.hotel_ids))
   AND (e.type = ANY (w.events) OR split_part(e.type, '.', 1) || '.*' = ANY (w.events))
   AND e.created_at >= w.created_at
 WHERE NOT EXISTS (
         SELECT 1 FROM webhook_fanout f
          WHERE f.last_xid IS NOT NULL AND (e.xid, e.position) <= (f.last_xid, f.last_position))
ON CONFLICT (endpoint_id, event_position) DO NOTHING;

DROP TABLE webhook_fanout;
