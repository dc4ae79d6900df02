-- The transactional outbox (API.md 8.1): each event is inserted by the transaction that makes the
-- change it records, so one never commits without the other.
CREATE TABLE events (
  position   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id  text NOT NULL UNIQUE CHECK (public_id ~ '^evt_[0-9a-z]+$'),
  type       text NOT NULL,
  hotel_id   text NOT NULL,
  data       jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_hotel_position ON events (hotel_id, position);
CREATE INDEX events_created_at ON events (created_at);
