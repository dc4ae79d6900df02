-- Issue 37: Idempotency-Key answers of a hotel's requests (a booking, its quote) are kept with that
-- hotel's rows, keyed by hotel: on Citus sharded by hotel_id beside the reservations, so a booking
-- that stores its answer in its own transaction commits on one shard. Requests without a hotel keep
-- `idempotency_keys` (migration 001; on Citus, local to the coordinator). Same columns and meaning.
CREATE TABLE hotel_idempotency_keys (
  hotel_id     text NOT NULL,
  scope_hash   bytea NOT NULL,
  request_hash bytea NOT NULL,
  state        text NOT NULL CHECK (state IN ('in_progress', 'done')),
  response     bytea,
  claim_token  text,
  locked_until timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hotel_id, scope_hash)
);
CREATE INDEX hotel_idempotency_keys_expires_at ON hotel_idempotency_keys (expires_at);
SELECT innkeep_shard_by_hotel('hotel_idempotency_keys');
