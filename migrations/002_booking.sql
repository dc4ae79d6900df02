CREATE TABLE hotels (
  id         text PRIMARY KEY,
  definition jsonb NOT NULL,                -- the catalogue entry with defaults applied
  revision   bigint NOT NULL DEFAULT 1,     -- bumped on every change so processes refresh their cache
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE room_types (
  hotel_id text NOT NULL REFERENCES hotels (id),
  id       text NOT NULL,
  count    integer NOT NULL CHECK (count >= 0),
  active   boolean NOT NULL DEFAULT true,   -- false once dropped from the catalogue; sold nights stay
  PRIMARY KEY (hotel_id, id)
);

-- One row per room type and night, created on first sale. The CHECK is the last word on
-- overselling: whatever the application does, sold can never pass total.
CREATE TABLE inventory (
  hotel_id     text NOT NULL,
  room_type_id text NOT NULL,
  night        date NOT NULL,
  total        integer NOT NULL,
  sold         integer NOT NULL DEFAULT 0,
  PRIMARY KEY (hotel_id, room_type_id, night),
  FOREIGN KEY (hotel_id, room_type_id) REFERENCES room_types (hotel_id, id),
  CONSTRAINT inventory_not_oversold CHECK (sold >= 0 AND sold <= total)
);

CREATE TABLE quotes (
  id         text PRIMARY KEY,
  hotel_id   text NOT NULL REFERENCES hotels (id),
  body       jsonb NOT NULL,                -- the quote exactly as answered
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX quotes_expires_at ON quotes (expires_at);

CREATE TABLE reservations (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code              text NOT NULL UNIQUE,
  hotel_id          text NOT NULL REFERENCES hotels (id),
  status            text NOT NULL CHECK (status IN ('confirmed', 'cancelled')),
  room_type_id      text NOT NULL,
  rate_plan_id      text NOT NULL,
  check_in          date NOT NULL,
  check_out         date NOT NULL,
  rooms             integer NOT NULL CHECK (rooms > 0),
  stay              jsonb NOT NULL,         -- party, services, snapshots, lines, totals, policy
  guest             jsonb NOT NULL,
  special_requests  text,
  total_amount      bigint NOT NULL,
  currency          text NOT NULL,
  paid_amount       bigint NOT NULL DEFAULT 0,
  payment_status    text NOT NULL CHECK (payment_status IN ('unpaid', 'paid', 'refunded', 'partially_refunded')),
  cancellation      jsonb,
  checkin_status    text NOT NULL DEFAULT 'not_started'
                    CHECK (checkin_status IN ('not_started', 'in_progress', 'completed')),
  access_token_hash bytea NOT NULL UNIQUE,
  quote_id          text UNIQUE REFERENCES quotes (id), -- a quote becomes at most one reservation
  version           integer NOT NULL DEFAULT 1,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  CHECK (check_out > check_in),
  CHECK (paid_amount >= 0)
);
CREATE INDEX reservations_hotel_check_out ON reservations (hotel_id, check_out);

-- The money ledger: what the provider actually charged or refunded, never edited.
CREATE TABLE payments (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reservation_id bigint NOT NULL REFERENCES reservations (id),
  kind           text NOT NULL CHECK (kind IN ('charge', 'refund')),
  purpose        text NOT NULL,
  amount         bigint NOT NULL CHECK (amount > 0),
  currency       text NOT NULL,
  provider       text NOT NULL,
  provider_ref   text NOT NULL,
  brand          text,
  last4          text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payments_reservation ON payments (reservation_id);
