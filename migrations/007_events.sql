-- The transactional outbox (API.md 8.1): each event is inserted by the transaction that makes the
-- change it records, so one never commits without the other.
--
-- `xid` is the inserting transaction's id. The feed publishes only events whose transaction is older
-- than every transaction of this database still running (`xid < events_feed_horizon()`) and orders
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

-- The oldest transaction id that may still commit events, as of the current snapshot: the
-- snapshot's in-progress ids (its `xip`, which spans every database of the server), less those that
-- pg_stat_activity shows running in another database (they can never write here), or the
-- snapshot's `xmax` when none is left. An id is never reused, so however stale the activity view,
-- an id it attributes to another database is that database's; an id it does not show (ended since,
-- a prepared transaction, a view hidden by privileges) is kept, which only holds the feed back.
CREATE FUNCTION events_feed_horizon() RETURNS xid8 LANGUAGE sql STABLE AS $$
  SELECT coalesce(min(x), pg_snapshot_xmax(pg_current_snapshot()))
    FROM pg_snapshot_xip(pg_current_snapshot()) AS x
   WHERE (x::text::numeric % 4294967296) NOT IN (
           SELECT a.backend_xid::text::numeric
             FROM pg_stat_activity a
            WHERE a.backend_xid IS NOT NULL
              AND a.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database()))
$$;
