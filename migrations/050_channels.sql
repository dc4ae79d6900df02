-- Channels (API.md 11): iCal feeds both ways and the AlpineBits acknowledgements.

-- Export: one secret feed URL per row; only the SHA-256 of its token is kept (the URL is shown
-- once, at creation). A deleted feed's row goes, so its URL answers 404 at once.
CREATE TABLE ical_feeds (
  id           text PRIMARY KEY,
  hotel_id     text NOT NULL,
  room_type_id text NOT NULL,
  token_hash   bytea NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (hotel_id, room_type_id) REFERENCES room_types (hotel_id, id)
);
CREATE INDEX ical_feeds_hotel ON ical_feeds (hotel_id);

-- Import: an external calendar fetched every ICAL_POLL_SECONDS. `lease_until` is the claim of
-- the one process fetching it now (like webhook deliveries): a killed process's claim runs out.
-- The last fetch's outcome is kept for the operator; a failed one leaves the holds as they were.
CREATE TABLE ical_imports (
  id             text PRIMARY KEY,
  hotel_id       text NOT NULL,
  room_type_id   text NOT NULL,
  url            text NOT NULL CHECK (length(url) <= 2000),
  name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at     timestamptz NOT NULL DEFAULT now(),
  next_fetch_at  timestamptz NOT NULL DEFAULT now(),
  lease_until    timestamptz,
  last_fetch_at  timestamptz,
  last_status    text CHECK (last_status IN ('ok', 'failed')),
  last_error     text,
  last_events    integer,
  last_conflicts integer,
  FOREIGN KEY (hotel_id, room_type_id) REFERENCES room_types (hotel_id, id)
);
CREATE INDEX ical_imports_hotel ON ical_imports (hotel_id);
CREATE INDEX ical_imports_due ON ical_imports (next_fetch_at);

-- The events of the last good fetch of each import: each holds one room of the import's room type
-- on every night [check_in, check_out), clipped to the nights still to come.
CREATE TABLE ical_holds (
  import_id    text NOT NULL REFERENCES ical_imports (id) ON DELETE CASCADE,
  uid          text NOT NULL,
  hotel_id     text NOT NULL,
  room_type_id text NOT NULL,
  check_in     date NOT NULL,
  check_out    date NOT NULL,
  summary      text,
  PRIMARY KEY (import_id, uid),
  CHECK (check_out > check_in)
);
CREATE INDEX ical_holds_room_type ON ical_holds (hotel_id, room_type_id, check_in);

-- Per night, the external holds of a room type (`holds`) and how many of them the inventory row
-- counts in its `sold` (`taken`). Holds that found no room left are overbookings, kept and shown:
-- holds − taken. Written only under the inventory row's lock, in the same transaction.
CREATE TABLE channel_nights (
  hotel_id     text NOT NULL,
  room_type_id text NOT NULL,
  night        date NOT NULL,
  holds        integer NOT NULL CHECK (holds >= 0),
  taken        integer NOT NULL CHECK (taken >= 0 AND taken <= holds),
  PRIMARY KEY (hotel_id, room_type_id, night)
);

-- AlpineBits GuestRequests (OTA_Read / OTA_NotifReport), per client id: the reservation version
-- last sent to that client and the version it acknowledged. A reservation is sent again once its
-- version moves past the one acknowledged; an acknowledgement covers the version that was sent,
-- so a change made between the read and the acknowledgement is still sent.
CREATE TABLE alpinebits_acks (
  client_id       text NOT NULL CHECK (length(client_id) BETWEEN 1 AND 200),
  reservation_id  bigint NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
  sent_version    integer NOT NULL,
  acked_version   integer,
  acknowledged_at timestamptz,
  PRIMARY KEY (client_id, reservation_id)
);
