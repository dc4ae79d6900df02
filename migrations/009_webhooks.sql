-- Webhook endpoints and their deliveries (API.md 8.2).
CREATE TABLE webhook_endpoints (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id        text NOT NULL UNIQUE CHECK (public_id ~ '^we_[0-9a-z]+$'),
  url              text NOT NULL,
  -- Event types or `prefix.*` patterns, validated against EVENT_TYPES on creation.
  events           text[] NOT NULL CHECK (cardinality(events) > 0),
  -- NULL = every hotel (made by a key for every hotel without `hotelIds`).
  hotel_ids        text[],
  description      text,
  -- The signing secret, AES-256-GCM under DATA_ENCRYPTION_KEY (context: the public id).
  secret_encrypted bytea NOT NULL,
  created_by       text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);

-- One row per (endpoint, event) to deliver. A worker claims due rows with FOR UPDATE SKIP LOCKED and
-- a lease (`locked_until`, `claim`): a process that dies mid-attempt leaves the row to be claimed
-- again once the lease ends; a late answer from a lost claim changes nothing (the claim differs).
CREATE TABLE webhook_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id     bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_position  bigint NOT NULL REFERENCES events (position) ON DELETE CASCADE,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz,
  claim           text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  UNIQUE (endpoint_id, event_position)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_position);

-- Every attempt, for `GET /operator/webhook-endpoints/{id}/deliveries`: never the payload.
CREATE TABLE webhook_attempts (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id  bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id     text NOT NULL,
  attempt      integer NOT NULL,
  attempted_at timestamptz NOT NULL,
  http_status  integer,
  error        text,
  duration_ms  integer NOT NULL
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id DESC);
CREATE INDEX webhook_attempts_time ON webhook_attempts (attempted_at);

-- How far the feed has been fanned out into deliveries: one row, advanced by one process at a time.
CREATE TABLE webhook_fanout (
  singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  last_xid      xid8,
  last_position bigint
);
INSERT INTO webhook_fanout DEFAULT VALUES;
