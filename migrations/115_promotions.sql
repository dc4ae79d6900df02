-- Promotion codes (API.md 14.1, issue 38). Every table is the hotel's: hotel_id leads each key.

-- The codes the operator API saved. A row wins over the catalogue's code of the same name; a
-- deleted one (`definition` NULL) hides the catalogue's code, so a reload does not bring it back.
-- `code` is stored upper-cased: codes are matched without regard to case.
CREATE TABLE promotions (
  hotel_id    text NOT NULL REFERENCES hotels (id),
  code        text NOT NULL,
  definition  jsonb,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hotel_id, code)
);

-- How many confirmed reservations hold each code: the row a booking locks (a conditional UPDATE)
-- so exactly `maxUses` reservations get a code however many race, on however many processes.
CREATE TABLE promotion_counters (
  hotel_id  text NOT NULL REFERENCES hotels (id),
  code      text NOT NULL,
  uses      integer NOT NULL DEFAULT 0 CHECK (uses >= 0),
  PRIMARY KEY (hotel_id, code)
);

-- Which confirmed reservation holds which code, and for which guest e-mail (`maxUsesPerGuest`).
-- A cancellation, or a change that drops the code, deletes its row and gives the use back.
CREATE TABLE promotion_uses (
  hotel_id        text NOT NULL REFERENCES hotels (id),
  reservation_id  bigint NOT NULL,
  code            text NOT NULL,
  guest_email     text NOT NULL,
  PRIMARY KEY (hotel_id, reservation_id)
);
CREATE INDEX promotion_uses_by_guest ON promotion_uses (hotel_id, code, guest_email);

-- On Citus (migration 113), the hotel's tables are sharded by hotel beside its reservations; elsewhere
-- this does nothing.
SELECT innkeep_shard_by_hotel('promotions');
SELECT innkeep_shard_by_hotel('promotion_counters');
SELECT innkeep_shard_by_hotel('promotion_uses');
-- After the sharding: Citus refuses a key from a table not yet distributed to a distributed one
-- (reservations), and both sides sharded by hotel keep the check inside one shard.
ALTER TABLE promotion_uses ADD FOREIGN KEY (hotel_id, reservation_id) REFERENCES reservations (hotel_id, id);
