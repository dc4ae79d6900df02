-- The transactional outbox (API.md 8.1): each event is inserted by the transaction that makes the
-- change it records, so one never commits without the other.
--
-- `xid` is the inserting transaction's id. The feed publishes only events whose transaction is older
-- than every transaction still running (`xid < pg_snapshot_xmin(pg_current_snapshot())`) and orders
-- them by (xid, position): a transaction that took its position early but commits late holds the
-- feed back instead of being skipped by a reader already past it (see src/events/feed.repository.ts).
CREATE TABLE events (
  position   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  xid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
  public_id  text NOT NULL UNIQUE CHECK (public_id ~ '^evt_[0-9a-z]+$'),
  type       text NOT NULL,
  hotel_id   text NOT NULL,
  data       jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_feed_order ON events (xid, position);
CREATE INDEX events_created_at ON events (created_at);
