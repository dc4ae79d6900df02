-- The operator calendar (API.md 7.4): per-night overrides layered over the catalogue. A NULL
-- column is "not overridden" (the catalogue decides); a row whose columns are all NULL is deleted.
-- Catalogue loads never touch these tables, so overrides outlive restarts and reloads.

-- Rooms and restrictions of a room type on one night. `rooms` is the sellable count that night:
-- the night's `inventory.total` is kept equal to it, so `CHECK (sold <= total)` still decides.
-- minStay / maxStay apply to arrivals on the night, as a catalogue restriction covering it does.
CREATE TABLE calendar_overrides (
  hotel_id            text NOT NULL,
  room_type_id        text NOT NULL,
  night               date NOT NULL,
  rooms               integer CHECK (rooms BETWEEN 0 AND 100000),
  stop_sell           boolean,
  closed_to_arrival   boolean,
  closed_to_departure boolean,
  min_stay            integer CHECK (min_stay BETWEEN 1 AND 365),
  max_stay            integer CHECK (max_stay BETWEEN 1 AND 365),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hotel_id, room_type_id, night),
  FOREIGN KEY (hotel_id, room_type_id) REFERENCES room_types (hotel_id, id)
);

-- Price fields of a room type under a rate plan on one night; each replaces the catalogue's
-- (plan price and seasons) for that night only. Rate plans are not rows of their own, so the
-- plan id is checked by the application against the catalogue.
CREATE TABLE calendar_price_overrides (
  hotel_id        text NOT NULL,
  room_type_id    text NOT NULL,
  rate_plan_id    text NOT NULL,
  night           date NOT NULL,
  base            integer CHECK (base BETWEEN 0 AND 1000000000),
  included_adults integer CHECK (included_adults BETWEEN 1 AND 100),
  extra_adult     integer CHECK (extra_adult BETWEEN 0 AND 1000000000),
  child           integer CHECK (child BETWEEN 0 AND 1000000000),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hotel_id, room_type_id, rate_plan_id, night),
  FOREIGN KEY (hotel_id, room_type_id) REFERENCES room_types (hotel_id, id)
);
